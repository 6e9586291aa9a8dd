// Device layer: unsegmented MatMulScan, one pass over memory, a persistent grid taking tiles of
// P::passes × 4096 items in order (tile/tile_stages, tuned by a tile/policy type). Per tile: (1) each pass (512 items per
// warp) scans its 16-item rows, on the CUDA cores or on the tensor cores (fp32 as three bf16
// parts or int32 as four byte planes times the 0/1 prefix matrix) as U says (warp/row_scan), (2) carries between the warp's rows
// on CUDA cores (warp/row_carry; V3: a second product, warp/row_totals_mma) and parks the warp-local scan in the stage; (3) carries between
// warps from shared memory (tile/warp_prefix); (4) the tile's exclusive prefix by decoupled
// look-back (tile/lookback's agent); (5) a last sweep adds the carries and stores 16-byte vectors,
// freeing the stage pass by pass for the next tile's bulk copy.
#pragma once
#include <cstdint>

#include "mmvram/gpu/tile/lookback.cuh"
#include "mmvram/gpu/tile/policy.cuh"
#include "mmvram/gpu/tile/tile_clock.cuh"
#include "mmvram/gpu/tile/tile_stages.cuh"
#include "mmvram/gpu/tile/warp_prefix.cuh"
#include "mmvram/gpu/warp/row_carry.cuh"
#include "mmvram/gpu/warp/row_scan.cuh"
#include "mmvram/gpu/warp/row_totals_mma.cuh"

namespace mmv::gpu::device {

// out[i] = in[0] + ... + in[i] for i < n; T = float or std::uint32_t (wrapping). desc: one
// zeroed word per tile, counter zeroed; aligned: in and out 16-byte aligned. Dynamic shared
// memory: P::stage_bytes<T, false>(). U: the unit of the in-tile scans (api.hpp: cuda_cores;
// ablation.hpp: the others). clock: per-tile cycles if its buffer is set (tile/tile_clock).
template <class T, warp::unit U, class P = tile::scan_policy>
__global__ void __launch_bounds__(P::threads, P::min_blocks)
    matmul_scan_kernel(const T* in, T* out, std::int64_t n, std::int64_t tiles, std::uint64_t* desc,
                       unsigned long long* counter, bool aligned, tile::tile_clock clock) {
  extern __shared__ __align__(128) unsigned char stages[];
  __shared__ T warp_total[P::passes * P::warps];
  __shared__ T tile_excl;
  __shared__ unsigned long long slot;
  __shared__ std::uint64_t bars[P::stages * P::passes];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const auto frags = warp::make_value_frags<T>(lane);
  const auto total_frags = warp::make_total_frags<T>(lane);
  const tile::scan_tile_state<T> chain{desc};
  tile::tile_stages<T, false, P> src{in, nullptr, n, tiles, aligned, counter, &slot, bars, stages};
  int s = 0;
  for (std::int64_t t = src.first(); t < tiles;) {
    clock.begin();
#pragma unroll
    for (int p = 0; p < P::passes; ++p) {
      T v[4][4], xs[4][4], tot[4], carry[4];
      std::uint32_t no_flags[4];
      src.load(t, s, p, warp, lane, v, no_flags);
      warp::row_scan_on<U>(v, frags, xs, tot);
      const T wt = warp::row_carry_on<U>(tot, total_frags, carry);
#pragma unroll
      for (int c = 0; c < 4; ++c)
#pragma unroll
        for (int e = 0; e < 4; ++e) xs[c][e] += carry[c];
      src.put(s, p, warp, lane, xs);
      if (lane == 0) warp_total[p * P::warps + warp] = wt;
    }
    __syncthreads();
    T pre[P::passes], total;
    tile::warp_prefixes(warp_total, warp, pre, total);
    if (warp == 0) {
      const T ex = chain.exclusive_prefix(t, total, false);
      if (lane == 0) tile_excl = ex, src.claim();
    }
    __syncthreads();
    src.start_early(s);
#pragma unroll
    for (int p = 0; p < P::passes; ++p) {
      T xs[4][4];
      src.get(s, p, warp, lane, xs);
      const T cv = tile_excl + pre[p];
#pragma unroll
      for (int c = 0; c < 4; ++c)
#pragma unroll
        for (int e = 0; e < 4; ++e) xs[c][e] += cv;
      tile::store_values(out, t * P::tile_items + p * tile::kPassItems, n, src.staged(t), warp, lane, xs);
      src.swept(s, p);
    }
    clock.end(t);
    t = src.next(s);
  }
}

}  // namespace mmv::gpu::device
