// Device layer: SSCR segmented scan, one pass over memory. Each pass of a tile: speculative
// (unsegmented) row scans of values and flags on the tensor cores, COMPRESS and the first half
// of REVERT in shared memory (warp/compress), segmented carries between rows; then segmented
// carries between warps and a segmented decoupled look-back between tiles (a tile holding a
// start publishes its last segment's sum as a prefix at once), and a last sweep that adds the
// carry to the items before their row's first start and stores.
#pragma once
#include <cstdint>

#include "mmvram/gpu/device/matmul_scan.cuh"
#include "mmvram/gpu/warp/compress.cuh"

namespace mmv::gpu::device {

// out[i] = x[s] + ... + x[i], s = the last start <= i (flags[s] != 0, or s = 0). desc: one
// zeroed word per tile, counter zeroed; aligned: x, flags and out 16-byte aligned. Dynamic
// shared memory: tile::stage_bytes<T, true>().
template <class T>
__global__ void __launch_bounds__(tile::kThreads, kSegMinBlocks)
    sscr_kernel(const T* x, const std::uint8_t* flags, T* out, std::int64_t n, std::int64_t tiles,
                std::uint64_t* desc, unsigned long long* counter, bool aligned) {
  extern __shared__ __align__(128) unsigned char stages[];
  __shared__ T lists[tile::kWarps * 32 * warp::kSlots];
  __shared__ warp::seg<T> warp_span[tile::kPasses * tile::kWarps];
  __shared__ T tile_excl;
  __shared__ unsigned long long slot;
  __shared__ std::uint64_t bars[tile::kStages * tile::kPasses];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const auto frags = warp::make_value_frags<T>(lane);
  const auto flag_frags = warp::make_frags_bf16(lane);
  T* wr = lists + (warp * 32 + (lane >> 2) * 4) * warp::kSlots;
  tile::tile_stages<T, true> src{x, flags, n, tiles, aligned, counter, &slot, bars, stages};
  int s = 0;
  for (std::int64_t t = src.first(); t < tiles;) {
#pragma unroll
    for (int p = 0; p < tile::kPasses; ++p) {
      T v[4][4], xs[4][4], tot[4];
      std::uint32_t fw[4], F[4][4], nf[4], fb[4];
      src.load(t, s, p, warp, lane, v, fw);
      warp::row_scan(v, frags, xs, tot);
      warp::flag_scan(fw, flag_frags, F, nf);
      __syncwarp();
      warp::compress(wr, fw, F, xs, v);
      __syncwarp();
      warp::seg<T> row[4], carry[4];
      warp::row_spans(wr, nf, tot, row);
      const warp::seg<T> ws = warp::row_carry(row, carry);
      warp::revert(wr, nf, F, xs);
      warp::carry_in_warp(nf, F, carry, xs, fb);
      src.put(s, p, warp, lane, xs);
      src.put_bytes(s, p, warp, lane, fb);
      if (lane == 0) warp_span[p * tile::kWarps + warp] = ws;
    }
    __syncthreads();
    warp::seg<T> pre[tile::kPasses], total;
    tile::warp_prefixes(warp_span, warp, pre, total);
    if (warp == 0) {
      T ex = T(0);
      const auto st = total.f ? tile::prefix : tile::aggregate;
      if (lane == 0) tile::store_relaxed(desc + t, tile::value_word(st, total.v));
      if (t > 0) {
        ex = tile::look_back<T>(desc, t);
        if (lane == 0 && !total.f) tile::store_relaxed(desc + t, tile::value_word(tile::prefix, ex + total.v));
      }
      if (lane == 0) tile_excl = ex, src.claim();
    }
    __syncthreads();
    src.start_early(s);
#pragma unroll
    for (int p = 0; p < tile::kPasses; ++p) {
      T xs[4][4];
      std::uint32_t fb[4];
      src.get(s, p, warp, lane, xs);
      src.get_bytes(s, p, warp, lane, fb);
      warp::add_prefix(fb, pre[p].f ? pre[p].v : tile_excl + pre[p].v, xs);
      tile::store_values(out, t * tile::kTileItems + p * tile::kPassItems, n, src.staged(t), warp, lane, xs);
    }
    t = src.next(s);
  }
}

}  // namespace mmv::gpu::device
