// Device layer: SSCR segmented scan, one pass over memory. Each pass of a tile (512 items per
// warp): (1) speculative (unsegmented) in-lane scans, on the tensor cores or the CUDA cores as
// U says (warp/row_scan: lane_scan); (2) REVERT inside each lane's 4 items (warp/revert); (3) segmented carries
// between lanes and rows (shuffles), parked in the stage. Then (4) segmented carries
// between warps and a segmented decoupled look-back between tiles (a tile holding a start
// publishes its last segment's sum as a prefix at once), and (5) a last sweep that adds the
// carry to the items before their warp's first start and stores. A warp block with no start
// takes MatMulScan's path instead (row scans, plain row carries). V2 (U = tensor_core_rows)
// replaces (1)-(3) in warp blocks with a start by 16-item row scans repaired at the row
// (warp/revert_rows); V3 (tensor_core_warp) scans the whole warp block speculatively with two
// tensor-core products and REVERTs by a gather through shared memory (warp/revert_warp),
// falling back to V0's path where an fp32 speculative value is not finite.
#pragma once
#include <cstdint>

#include "mmvram/gpu/device/matmul_scan.cuh"
#include "mmvram/gpu/warp/revert.cuh"
#include "mmvram/gpu/warp/revert_rows.cuh"
#include "mmvram/gpu/warp/revert_warp.cuh"

namespace mmv::gpu::device {

// out[i] = x[s] + ... + x[i], s = the last start <= i (flags[s] != 0, or s = 0). desc: one
// zeroed word per tile, counter zeroed; aligned: x, flags and out 16-byte aligned. Dynamic
// shared memory: P::stage_bytes<T, true>(). U: the unit of the in-tile scans (api.hpp:
// cuda_cores; ablation.hpp: the others). clock: per-tile cycles if its buffer is set.
template <class T, warp::unit U, class P = tile::segmented_policy>
__global__ void __launch_bounds__(P::threads, P::min_blocks)
    sscr_kernel(const T* x, const std::uint8_t* flags, T* out, std::int64_t n, std::int64_t tiles,
                std::uint64_t* desc, unsigned long long* counter, bool aligned, tile::tile_clock clock) {
  extern __shared__ __align__(128) unsigned char stages[];
  __shared__ warp::seg<T> warp_span[P::passes * P::warps];
  __shared__ T tile_excl;
  __shared__ unsigned long long slot;
  __shared__ std::uint64_t bars[P::stages * P::passes];
  constexpr bool v3 = U == warp::unit::tensor_core_warp;
  __shared__ T slots[v3 ? P::warps * warp::kSlotsPerWarp : 1];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const auto frags = warp::make_value_frags<T>(lane, true);
  const auto row_frags = warp::make_value_frags<T>(lane);
  const auto wfrags = warp::make_warp_frags<T>(lane);
  const tile::scan_tile_state<T> chain{desc};
  tile::tile_stages<T, true, P> src{x, flags, n, tiles, aligned, counter, &slot, bars, stages};
  int s = 0;
  for (std::int64_t t = src.first(); t < tiles;) {
    clock.begin();
    std::uint32_t fs[P::passes];
#pragma unroll
    for (int p = 0; p < P::passes; ++p) {
      T v[4][4], A[4][4], lc[4];
      std::uint32_t fw[4];
      src.load(t, s, p, warp, lane, v, fw);
      warp::seg<T> ws;
      if (__any_sync(~0u, (fw[0] | fw[1] | fw[2] | fw[3]) != 0u)) {
        bool done = false;
        if constexpr (U == warp::unit::tensor_core_rows) {  // V2: row scans repaired at the row
          std::uint32_t open_row[4];
          warp::seg<T> row[4];
          warp::revert_rows<U>(v, row_frags, fw, A, open_row, row);
          ws = warp::carry_rows(fw, open_row, row, A, lc, fs[p]);
          done = true;
        } else if constexpr (v3) {  // V3: the whole block speculatively, then REVERT
          warp::warp_speculation<T> w;
          if (warp::speculate_warp(v, fw, wfrags, w)) {
            ws = warp::revert_warp(w, fw, slots + warp * warp::kSlotsPerWarp, A);
            fs[p] = warp::first_start(fw);
            done = true;
          }
        }
        if (!done) {  // V0, V1 (and V3 where an fp32 speculative value is not finite: V0)
          warp::revert_in_lanes<v3 ? warp::unit::cuda_cores : U>(v, frags, fw, A);
          ws = warp::carry_lanes(fw, A, lc, fs[p]);
        }
      } else {  // no start in the warp block: MatMulScan's plain row scans and row carries
        T tot[4], carry[4];
        warp::row_scan_on<U>(v, row_frags, A, tot);
        ws = {0u, warp::row_carry_on<U>(tot, wfrags.totals, carry)};
#pragma unroll
        for (int c = 0; c < 4; ++c)
#pragma unroll
          for (int e = 0; e < 4; ++e) A[c][e] += carry[c];
        fs[p] = 512;
      }
      src.put(s, p, warp, lane, A);
      if (lane == 0) warp_span[p * P::warps + warp] = ws;
    }
    __syncthreads();
    warp::seg<T> pre[P::passes], total;
    tile::warp_prefixes(warp_span, warp, pre, total);
    if (warp == 0) {
      const T ex = chain.exclusive_prefix(t, total.v, total.f != 0u);
      if (lane == 0) tile_excl = ex, src.claim();
    }
    __syncthreads();
    src.start_early(s);
#pragma unroll
    for (int p = 0; p < P::passes; ++p) {
      T xs[4][4];
      src.get(s, p, warp, lane, xs);
      warp::add_prefix(fs[p], pre[p].f ? pre[p].v : tile_excl + pre[p].v, xs);
      tile::store_values(out, t * P::tile_items + p * tile::kPassItems, n, src.staged(t), warp, lane, xs);
      src.swept(s, p);
    }
    clock.end(t);
    t = src.next(s);
  }
}

}  // namespace mmv::gpu::device
