// Device layer: SCD segmented sum, one pass over memory: the SSCR pass pipeline up to
// COMPRESS, then DIFFERENTIATION of adjacent list slots gives, at each start, the sum of the
// segment that ends just before it (parked in the stage). Two look-back chains per tile: values
// (segmented) and start counts (plain); the counts give each segment its global index, and a
// last sweep writes sums and offsets.
#pragma once
#include <cstdint>

#include "mmvram/gpu/device/matmul_scan.cuh"
#include "mmvram/gpu/warp/compress.cuh"

namespace mmv::gpu::device {

// For segment k (k-th start, position 0 always one): offsets[k] = its start, sums[k] = its sum;
// the last tile writes *num_segments = K, offsets[K] = n and the last segment's sum. desc: two
// zeroed words per tile, counter zeroed; aligned: x and flags 16-byte aligned. Dynamic shared
// memory: tile::stage_bytes<T, true>().
template <class T>
__global__ void __launch_bounds__(tile::kThreads, kSegMinBlocks)
    scd_kernel(const T* x, const std::uint8_t* flags, T* sums, std::int64_t* offsets,
               std::int64_t* num_segments, std::int64_t n, std::int64_t tiles, ulonglong2* desc,
               unsigned long long* counter, bool aligned) {
  extern __shared__ __align__(128) unsigned char stages[];
  __shared__ T lists[tile::kWarps * 32 * warp::kSlots];
  __shared__ warp::seg<T> warp_span[tile::kPasses * tile::kWarps];
  __shared__ std::uint32_t warp_count[tile::kPasses * tile::kWarps];
  __shared__ T tile_excl;
  __shared__ std::uint64_t tile_count;
  __shared__ unsigned long long slot;
  __shared__ std::uint64_t bars[tile::kStages * tile::kPasses];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const auto frags = warp::make_value_frags<T>(lane);
  const auto flag_frags = warp::make_frags_bf16(lane);
  T* wr = lists + (warp * 32 + (lane >> 2) * 4) * warp::kSlots;
  tile::tile_stages<T, true> src{x, flags, n, tiles, aligned, counter, &slot, bars, stages};
  int s = 0;
  for (std::int64_t t = src.first(); t < tiles;) {
    std::uint32_t ccarry[tile::kPasses][4];
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
      const std::uint32_t wc = warp::row_carry(nf, ccarry[p]);
      warp::differentiate(wr, fw, F, carry, xs, fb);
      src.put(s, p, warp, lane, xs);
      src.put_bytes(s, p, warp, lane, fb);
      if (lane == 0) warp_span[p * tile::kWarps + warp] = ws, warp_count[p * tile::kWarps + warp] = wc;
    }
    __syncthreads();
    warp::seg<T> pre[tile::kPasses], total;
    std::uint32_t cpre[tile::kPasses], count;
    tile::warp_prefixes(warp_span, warp, pre, total);
    tile::warp_prefixes(warp_count, warp, cpre, count);
    if (warp == 0) {
      T ex = T(0);
      std::uint64_t cex = 0;
      const auto st = total.f ? tile::prefix : tile::aggregate;
      if (lane == 0)
        tile::store_relaxed(desc + t, tile::value_word(st, total.v),
                            tile::count_word(t == 0 ? tile::prefix : tile::aggregate, count));
      if (t > 0) {
        tile::look_back<T>(desc, t, ex, cex);
        if (lane == 0)
          tile::store_relaxed(desc + t, tile::value_word(tile::prefix, total.f ? total.v : ex + total.v),
                              tile::count_word(tile::prefix, cex + count));
      }
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
    for (int p = 0; p < tile::kPasses; ++p) {
      std::uint32_t fb[4];
      src.get_bytes(s, p, warp, lane, fb);
      if (!(fb[0] | fb[1] | fb[2] | fb[3])) continue;
      T d[4][4];
      src.get(s, p, warp, lane, d);
      const T pv = pre[p].f ? pre[p].v : tile_excl + pre[p].v;
      const std::int64_t base = t * tile::kTileItems + p * tile::kPassItems;
#pragma unroll
      for (int c = 0; c < 4; ++c) {
        const std::uint64_t k0 = tile_count + cpre[p] + ccarry[p][c];
        const std::int64_t pos = base + tile::chunk_offset(warp, lane, c);
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const std::uint32_t b = (fb[c] >> (8 * e)) & 0xffu;
          if (!b) continue;
          const std::uint64_t k = k0 + (b & 0x1fu) - 1;
          offsets[k] = pos + e;
          if (k > 0) sums[k - 1] = b & 0x40u ? d[c][e] + pv : d[c][e];
        }
      }
    }
    t = src.next(s);
  }
}

}  // namespace mmv::gpu::device
