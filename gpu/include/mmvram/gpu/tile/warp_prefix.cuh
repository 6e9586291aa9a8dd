// Tile layer: carries between the tile's kPasses × kWarps warp spans, read from per-warp totals
// in shared memory after a barrier (entry p * kWarps + w is warp w of pass p: item order).
#pragma once
#include <cstdint>

#include "mmvram/gpu/tile/tile_stages.cuh"
#include "mmvram/gpu/warp/row_carry.cuh"

namespace mmv::gpu::tile {

// pre[p] = sum of the entries before warp `warp` of pass p; total = sum of all entries.
template <class T>
__device__ __forceinline__ void warp_prefixes(const T* entry, int warp, T (&pre)[kPasses], T& total) {
  T run = T(0);
#pragma unroll
  for (int i = 0; i < kPasses * kWarps; ++i) {
    if (i % kWarps == warp) pre[i / kWarps] = run;
    run += entry[i];
  }
  total = run;
}

// Segmented: pre[p] = the span of the entries before warp `warp` of pass p; total = all of them.
template <class T>
__device__ __forceinline__ void warp_prefixes(const warp::seg<T>* entry, int warp,
                                              warp::seg<T> (&pre)[kPasses], warp::seg<T>& total) {
  warp::seg<T> run{0u, T(0)};
#pragma unroll
  for (int i = 0; i < kPasses * kWarps; ++i) {
    if (i % kWarps == warp) pre[i / kWarps] = run;
    run = warp::combine(run, entry[i]);
  }
  total = run;
}

}  // namespace mmv::gpu::tile
