// Tile layer: carries between the tile's Passes × kWarps warp spans, read from per-warp totals
// in shared memory after a barrier (entry p * kWarps + w is warp w of pass p: item order; every
// tile_policy has kWarps warps, policy.cuh).
#pragma once
#include <cstdint>

#include "mmvram/gpu/tile/tile_io.cuh"
#include "mmvram/gpu/warp/row_carry.cuh"

namespace mmv::gpu::tile {

// pre[p] = sum of the entries before warp `warp` of pass p; total = sum of all entries.
template <class T, int Passes>
__device__ __forceinline__ void warp_prefixes(const T* entry, int warp, T (&pre)[Passes], T& total) {
  T run = T(0);
#pragma unroll
  for (int i = 0; i < Passes * kWarps; ++i) {
    if (i % kWarps == warp) pre[i / kWarps] = run;
    run += entry[i];
  }
  total = run;
}

// Segmented: pre[p] = the span of the entries before warp `warp` of pass p; total = all of them.
template <class T, int Passes>
__device__ __forceinline__ void warp_prefixes(const warp::seg<T>* entry, int warp,
                                              warp::seg<T> (&pre)[Passes], warp::seg<T>& total) {
  warp::seg<T> run{0u, T(0)};
#pragma unroll
  for (int i = 0; i < Passes * kWarps; ++i) {
    if (i % kWarps == warp) pre[i / kWarps] = run;
    run = warp::combine(run, entry[i]);
  }
  total = run;
}

}  // namespace mmv::gpu::tile
