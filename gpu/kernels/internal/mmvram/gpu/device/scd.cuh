// Device layer: SCD segmented sum, one pass over memory. In-tile scans run on the tensor cores
// or the CUDA cores as U says. Per tile: (1) speculative in-lane scans and the in-lane REVERT
// (warp/revert), (2) segmented carries between lanes and rows (shuffles) and the starts' ranks
// in their rows (warp/row_scan: flag_scan); (3) DIFFERENTIATION: at each start, the in-warp scan value just
// before it is the sum of the segment that ends there (parked in the stage with the rank);
// (4) carries between warps, and two look-back chains per tile: values (segmented) and start
// counts (plain), the counts giving each segment its global index; (5) a last sweep over the
// starts only writes sums and offsets. A warp block with no start takes a fast path: its total
// alone (warp/row_scan: warp_total), with nothing parked for the sweep. V2 (U =
// tensor_core_rows) replaces (1)-(3)'s value scans by 16-item row scans repaired at the row
// (warp/revert_rows); V3 (tensor_core_warp) scans the whole warp block and its starts' ranks
// with two tensor-core products each and differentiates through REVERT's gather
// (warp/revert_warp), falling back to V0's path where an fp32 speculative value is not finite.
#pragma once
#include <cstdint>

#include "mmvram/gpu/device/matmul_scan.cuh"
#include "mmvram/gpu/warp/revert.cuh"
#include "mmvram/gpu/warp/revert_rows.cuh"
#include "mmvram/gpu/warp/revert_warp.cuh"

namespace mmv::gpu::device {

// For segment k (k-th start, position 0 always one): offsets[k] = its start, sums[k] = its sum;
// the last tile writes *num_segments = K, offsets[K] = n and the last segment's sum. desc: two
// zeroed words per tile, counter zeroed; aligned: x and flags 16-byte aligned. Dynamic shared
// memory: P::stage_bytes<T, true>(). U: the unit of the in-tile scans (api.hpp: cuda_cores;
// ablation.hpp: the others). clock: per-tile cycles if its buffer is set.
template <class T, warp::unit U, class P = tile::segmented_policy>
__global__ void __launch_bounds__(P::threads, P::min_blocks)
    scd_kernel(const T* x, const std::uint8_t* flags, T* sums, std::int64_t* offsets,
               std::int64_t* num_segments, std::int64_t n, std::int64_t tiles, ulonglong2* desc,
               unsigned long long* counter, bool aligned, tile::tile_clock clock) {
  extern __shared__ __align__(128) unsigned char stages[];
  __shared__ warp::seg<T> warp_span[P::passes * P::warps];
  __shared__ std::uint32_t warp_count[P::passes * P::warps];
  __shared__ T tile_excl;
  __shared__ std::uint64_t tile_count;
  __shared__ unsigned long long slot;
  __shared__ std::uint64_t bars[P::stages * P::passes];
  constexpr bool v3 = U == warp::unit::tensor_core_warp;
  __shared__ T slots[v3 ? P::warps * warp::kSlotsPerWarp : 1];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const auto frags = warp::make_value_frags<T>(lane, true);
  const auto row_frags = warp::make_value_frags<T>(lane);
  const auto flag_frags = warp::make_frags_bf16(lane);
  const auto wfrags = warp::make_warp_frags<T>(lane);
  const tile::scan_count_tile_state<T> chains{desc};
  tile::tile_stages<T, true, P> src{x, flags, n, tiles, aligned, counter, &slot, bars, stages};
  int s = 0;
  for (std::int64_t t = src.first(); t < tiles;) {
    clock.begin();
    std::uint32_t ccarry[P::passes][4];
    bool starts[P::passes];
#pragma unroll
    for (int p = 0; p < P::passes; ++p) {
      T v[4][4], A[4][4], lc[4], d[4][4];
      std::uint32_t fw[4], F[4][4], nf[4], fb[4], fs;
      src.load(t, s, p, warp, lane, v, fw);
      starts[p] = __any_sync(~0u, (fw[0] | fw[1] | fw[2] | fw[3]) != 0u);
      if (!starts[p]) {  // no start in the warp block: only its total is needed
        const T wt = warp::warp_total_on<U>(v);
        if (lane == 0) warp_span[p * P::warps + warp] = {0u, wt}, warp_count[p * P::warps + warp] = 0;
        continue;
      }
      warp::seg<T> ws;
      std::uint32_t wc;
      if constexpr (v3) {  // V3: the whole block and its ranks, then DIFFERENTIATION by REVERT's gather
        warp::warp_speculation<T> w;
        const bool ok = warp::speculate_warp(v, fw, wfrags, w);
        wc = w.starts;
#pragma unroll
        for (int c = 0; c < 4; ++c) ccarry[p][c] = w.EF[c];
        if (ok) {
          ws = warp::differentiate_warp(w, fw, slots + warp * warp::kSlotsPerWarp, d, fb);
        } else {  // an fp32 speculative value is not finite: V0's path
          warp::revert_in_lanes<warp::unit::cuda_cores>(v, frags, fw, A);
          ws = warp::carry_lanes<false>(fw, A, lc, fs);
          warp::differentiate(fw, w.F, A, lc, fs, d, fb);
        }
      } else if constexpr (U == warp::unit::tensor_core_rows) {  // V2: row scans repaired at the row
        std::uint32_t open_row[4];
        warp::seg<T> row[4];
        warp::revert_rows<U>(v, row_frags, fw, A, open_row, row);
        warp::flag_scan_on<U>(fw, flag_frags, F, nf);
        ws = warp::carry_rows<false>(fw, open_row, row, A, lc, fs);
        warp::differentiate_rows(fw, F, A, open_row, lc, fs, d, fb);
      } else {
        warp::revert_in_lanes<U>(v, frags, fw, A);
        warp::flag_scan_on<U>(fw, flag_frags, F, nf);
        ws = warp::carry_lanes<false>(fw, A, lc, fs);
        warp::differentiate(fw, F, A, lc, fs, d, fb);
      }
      if constexpr (!v3) wc = warp::row_carry(nf, ccarry[p]);
      src.put(s, p, warp, lane, d);
      src.put_bytes(s, p, warp, lane, fb);
      if (lane == 0) warp_span[p * P::warps + warp] = ws, warp_count[p * P::warps + warp] = wc;
    }
    __syncthreads();
    warp::seg<T> pre[P::passes], total;
    std::uint32_t cpre[P::passes], count;
    tile::warp_prefixes(warp_span, warp, pre, total);
    tile::warp_prefixes(warp_count, warp, cpre, count);
    if (warp == 0) {
      T ex;
      std::uint64_t cex;
      chains.exclusive_prefix(t, total.v, total.f != 0u, count, ex, cex);
      if (lane == 0) {
        tile_excl = ex, tile_count = cex, src.claim();
        if (t == tiles - 1) {
          const std::uint64_t k = cex + count;
          *num_segments = std::int64_t(k);
          offsets[k] = n;
          sums[k - 1] = total.f ? total.v : ex + total.v;
        }
      }
    }
    __syncthreads();
    src.start_early(s);
#pragma unroll
    for (int p = 0; p < P::passes; ++p) {
      std::uint32_t fb[4] = {};
      if (starts[p]) src.get_bytes(s, p, warp, lane, fb);
      if (fb[0] | fb[1] | fb[2] | fb[3]) {
        const T pv = pre[p].f ? pre[p].v : tile_excl + pre[p].v;
        const std::int64_t base = t * P::tile_items + p * tile::kPassItems;
        const T* d = src.vals(s, p);
#pragma unroll
        for (int c = 0; c < 4; ++c) {
          const std::uint64_t k0 = tile_count + cpre[p] + ccarry[p][c];
          const int off = tile::chunk_offset(warp, lane, c);
          // one iteration per start of the chunk (bit 8e set for a start at item e)
          for (std::uint32_t m = thread::normalize_flags(fb[c]); m; m &= m - 1) {
            const int bit = __ffs(m) - 1, e = bit >> 3;
            const std::uint32_t b = (fb[c] >> bit) & 0xffu;
            const std::uint64_t k = k0 + (b & 0x1fu) - 1;
            offsets[k] = base + off + e;
            if (k > 0) sums[k - 1] = b & 0x40u ? d[off + e] + pv : d[off + e];
          }
        }
      }
      src.swept(s, p);
    }
    clock.end(t);
    t = src.next(s);
  }
}

}  // namespace mmv::gpu::device
