// Agent layer: SCD segmented sum's tile program for the tensor-core variants V1-V3 (V0 runs
// agent/scd_runs; agent/tile_loop runs this one). Reduce: in each pass a
// warp block holding a start is scanned by the unit policy (agent/unit_policy), which parks its
// DIFFERENTIATION in the stage: at each start, the in-warp scan value just before it (the sum of
// the segment that ends there) with the start's rank byte (Unit::scd_block); a block without a start
// contributes its total alone (warp/row_scan: warp_total) and parks nothing. Prefix: carries
// between warps, and two look-back chains per tile: values (segmented) and start counts (plain),
// the counts giving each segment its global index; the last tile writes the count, the end
// offset and the last sum. Sweep: over the starts only, staged per warp in rounds of kSweep so
// that consecutive lanes write the sums and offsets of consecutive segments.
#pragma once
#include <cstdint>

#include "mmvram/gpu/agent/tile_loop.cuh"
#include "mmvram/gpu/agent/unit_policy.cuh"
#include "mmvram/gpu/tile/lookback.cuh"
#include "mmvram/gpu/tile/policy.cuh"
#include "mmvram/gpu/tile/tile_stages.cuh"
#include "mmvram/gpu/tile/warp_prefix.cuh"

namespace mmv::gpu::agent {

// For segment k (k-th start, position 0 always one): offsets[k] = its start, sums[k] = its sum;
// *num_segments = K and offsets[K] = n. Unit: a unit policy (agent/unit_policy.cuh), P: a
// tile::tile_policy.
template <class T, class Unit, class P>
struct scd_agent {
  using policy = P;
  static constexpr std::uint32_t kSweep = 128;  // starts per warp and sweep round
  // A start staged for the sweep: its position in the pass, the sum of the segment before it.
  struct sweep_entry {
    std::uint32_t pos;
    T v;
  };
  // The kernel's __shared__ variables besides the stages, each declared in the kernel (device/).
  struct temp_storage {
    warp::seg<T>* warp_span;       // [P::passes * P::warps]
    std::uint32_t* warp_count;     // [P::passes * P::warps]
    T* tile_excl;
    std::uint64_t* tile_count;
    unsigned long long* slot;
    std::uint64_t* bars;           // [P::stages * P::passes]
    T* slots;                      // [P::warps * Unit::slots_per_warp], at least one
    sweep_entry* sweep;            // [P::warps * kSweep]
  };
  struct tile_state {
    std::uint32_t ccarry[P::passes][4];  // starts in the warp block before each chunk's rank origin
    bool starts[P::passes];              // the warp block holds a start
    warp::seg<T> pre[P::passes];         // the warp's value carry
    std::uint32_t cpre[P::passes];       // the starts before the warp in the tile
  };

  const temp_storage tmp;
  T* sums;
  std::int64_t *offsets, *num_segments;
  const int warp, lane;
  const block_frags<T> frags;
  const tile::scan_count_chain_state<T> chains;
  tile::tile_stages<T, true, P> src;

  // desc: two zeroed words per tile, counter zeroed; grid: where the tiles sit (x, flags);
  // stages: P::stage_bytes<T, true>() of dynamic shared memory.
  __device__ __forceinline__ scd_agent(temp_storage tmp, unsigned char* stages, const T* x,
                                       const std::uint8_t* flags, T* sums, std::int64_t* offsets,
                                       std::int64_t* num_segments, std::int64_t n, std::int64_t tiles,
                                       ulonglong2* desc, unsigned long long* counter, tile::tile_grid grid)
      : tmp(tmp), sums(sums), offsets(offsets), num_segments(num_segments), warp(threadIdx.x >> 5),
        lane(threadIdx.x & 31), frags(make_block_frags<T>(lane)), chains{desc},
        src{x, flags, n, tiles, grid, counter, tmp.slot, tmp.bars, stages} {}

  // The lane's four rank words of pass p parked as one vector in the warp block's part of the
  // stage's flag area (its flags already read by the warp).
  __device__ __forceinline__ uint4* rank_words(int s, int p) const {
    return reinterpret_cast<uint4*>(src.bytes(s, p) + warp * (tile::kPassItems / P::warps / 4)) + lane;
  }

  // Pass p of tile t (stage s): the warp block's DIFFERENTIATION parked, its span and count shared.
  __device__ __forceinline__ void reduce_pass(std::int64_t t, int s, int p, tile_state& ts) {
    T v[4][4], d[4][4];
    std::uint32_t fw[4], fb[4];
    src.load(t, s, p, warp, lane, v, fw);
    ts.starts[p] = __any_sync(~0u, (fw[0] | fw[1] | fw[2] | fw[3]) != 0u);
    if (!ts.starts[p]) {  // no start in the warp block: only its total is needed
      const T wt = warp::warp_total_on<Unit::unit>(v);
      if (lane == 0) tmp.warp_span[p * P::warps + warp] = {0u, wt}, tmp.warp_count[p * P::warps + warp] = 0;
      return;
    }
    std::uint32_t wc;
    const warp::seg<T> ws =
        Unit::scd_block(v, fw, frags, tmp.slots + warp * Unit::slots_per_warp, d, fb, ts.ccarry[p], wc);
#pragma unroll
    for (int c = 0; c < 4; ++c)  // only the starts' chunks are read back
      if (fw[c]) tile::sts4(src.vals(s, p) + tile::chunk_offset(warp, lane, c), d[c]);
    *rank_words(s, p) = make_uint4(fb[0], fb[1], fb[2], fb[3]);
    if (lane == 0) tmp.warp_span[p * P::warps + warp] = ws, tmp.warp_count[p * P::warps + warp] = wc;
  }

  // After a barrier: the warps' carries; warp 0 looks back on both chains, publishes and claims
  // the next tile; the last tile also writes the segment count, offsets[K] and the last sum.
  __device__ __forceinline__ void tile_prefix(std::int64_t t, tile_state& ts) {
    warp::seg<T> total;
    std::uint32_t count;
    tile::warp_prefixes(tmp.warp_span, warp, ts.pre, total);
    tile::warp_prefixes(tmp.warp_count, warp, ts.cpre, count);
    if (warp == 0) {
      T ex;
      std::uint64_t cex;
      chains.exclusive_prefix(t, total.v, total.f != 0u, count, ex, cex);
      if (lane == 0) {
        *tmp.tile_excl = ex, *tmp.tile_count = cex, src.claim();
        if (t == src.tiles - 1) {
          const std::uint64_t k = cex + count;
          *num_segments = std::int64_t(k);
          offsets[k] = src.n;
          sums[k - 1] = total.f ? total.v : ex + total.v;
        }
      }
    }
  }

  // After a barrier: for each start of pass p, its offset and the sum of the segment before it.
  // The warp's starts go through its sweep buffer in rounds of kSweep, so that consecutive lanes
  // write consecutive segments.
  __device__ __forceinline__ void sweep_pass(std::int64_t t, int s, int p, const tile_state& ts) {
    if (!ts.starts[p]) return;  // warp-uniform
    const uint4 r = *rank_words(s, p);
    const std::uint32_t fb[4] = {r.x, r.y, r.z, r.w};
    const std::uint32_t wc = tmp.warp_count[p * P::warps + warp];
    const T pv = ts.pre[p].f ? ts.pre[p].v : *tmp.tile_excl + ts.pre[p].v;
    const std::int64_t base = src.pass_base(t, p);
    const std::uint64_t kw = *tmp.tile_count + ts.cpre[p];
    const T* d = src.vals(s, p);
    sweep_entry* buf = tmp.sweep + warp * kSweep;
    for (std::uint32_t r0 = 0; r0 < wc; r0 += kSweep) {
#pragma unroll
      for (int c = 0; c < 4; ++c) {
        const int off = tile::chunk_offset(warp, lane, c);
        // one iteration per start of the chunk (bit 8e set for a start at item e)
        for (std::uint32_t m = thread::normalize_flags(fb[c]); m; m &= m - 1) {
          const int bit = __ffs(m) - 1, e = bit >> 3;
          const std::uint32_t b = (fb[c] >> bit) & 0xffu;
          const std::uint32_t j = ts.ccarry[p][c] + (b & 0x1fu) - 1 - r0;  // wraps below the round
          if (j < kSweep) buf[j] = {std::uint32_t(off + e), b & 0x40u ? d[off + e] + pv : d[off + e]};
        }
      }
      __syncwarp();
      for (std::uint32_t i = lane; i < kSweep && r0 + i < wc; i += 32) {
        const std::uint64_t k = kw + r0 + i;
        offsets[k] = base + buf[i].pos;
        if (k > 0) sums[k - 1] = buf[i].v;
      }
      __syncwarp();
    }
  }
};

}  // namespace mmv::gpu::agent
