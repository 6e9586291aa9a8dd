// Tile level, in-tile scan: combines the per-thread summary pairs of a block (WARPS warps)
// into each thread's exclusive prefix inside the tile and the tile's aggregate, using the
// warp scan WarpScan at both levels (within each warp, then across the warp aggregates).
#pragma once
#include "mmvram/gpu/baselines/warp/warp_seg_scan.cuh"

namespace mmv::gpu::baselines {

template <class T, int WARPS>
struct tile_scan_storage {
  seg_pair<T> warp_aggregate[WARPS];
  seg_pair<T> warp_exclusive[WARPS];
  seg_pair<T> tile_aggregate;
  seg_pair<T> tile_exclusive;  // filled in by the cross-tile step
};

// Returns the exclusive prefix of this thread's summary within the tile; on return
// s.tile_aggregate holds the tile's summary. Contains two __syncthreads().
template <class WarpScan, int WARPS, class T>
__device__ seg_pair<T> tile_exclusive_scan(seg_pair<T> summary, tile_scan_storage<T, WARPS>& s,
                                           unsigned lane, unsigned warp) {
  const seg_pair<T> identity{T(0), 0u};
  const seg_pair<T> inc = WarpScan::inclusive(summary, lane);
  seg_pair<T> exc = shfl_up_pair(inc, 1);
  if (lane == 0) exc = identity;
  if (lane == 31) s.warp_aggregate[warp] = inc;
  __syncthreads();
  if (warp == 0) {
    const seg_pair<T> p = lane < WARPS ? s.warp_aggregate[lane] : identity;
    const seg_pair<T> q = WarpScan::inclusive(p, lane);
    const seg_pair<T> qe = shfl_up_pair(q, 1);
    if (lane < WARPS) s.warp_exclusive[lane] = lane == 0 ? identity : qe;
    if (lane == WARPS - 1) s.tile_aggregate = q;
  }
  __syncthreads();
  return schwartz(s.warp_exclusive[warp], exc);
}

}  // namespace mmv::gpu::baselines
