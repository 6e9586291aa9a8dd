// Agent layer: SCD segmented sum's V0 (CUDA cores), with its own tile loop. Reduce: a lane holds
// 16 consecutive items (warp/scd_lanes); a warp block holding a start parks, in rank order, each
// start's value just before it and its position's low byte (at most kSide starts beside the
// stage, more in the warp block's own part of the stage); a block without a start contributes
// its total alone. Prefix: one counted scan of the tile's warp spans gives the carries of values
// and of start counts; warp 0 looks back on both chains. Sweep: lane j of a warp writes the
// sum and offset of its warp block's j-th segment (consecutive lanes, consecutive segments).
// The next tile is claimed once the look-back is done (as agent/tile_loop does); every pass whose
// parked starts lie beside the stage starts copying in before the sweep, the others after their
// own sweep (a barrier each), and the warps learn the claimed tile from its slot, not a barrier.
#pragma once
#include <cstdint>

#include "mmvram/gpu/thread/bulk_copy.cuh"
#include "mmvram/gpu/thread/split.cuh"
#include "mmvram/gpu/tile/lookback.cuh"
#include "mmvram/gpu/tile/policy.cuh"
#include "mmvram/gpu/tile/tile_clock.cuh"
#include "mmvram/gpu/tile/tile_stages.cuh"
#include "mmvram/gpu/warp/row_scan_cuda_cores.cuh"
#include "mmvram/gpu/warp/scd_lanes.cuh"

namespace mmv::gpu::agent {

// For segment k (k-th start, position 0 always one): offsets[k] = its start, sums[k] = its sum;
// *num_segments = K and offsets[K] = n. P: a one-stage tile::tile_policy.
template <class T, class P>
struct scd_runs_agent {
  static_assert(P::stages == 1 && P::warps == 8 && P::passes * P::warps <= 32);
  static constexpr int kSpans = P::passes * P::warps;  // warp-passes of a tile
  static constexpr std::uint32_t kSide = 64;           // starts a warp-pass parks beside the stage
  // The kernel's __shared__ variables besides the stage, each declared in the kernel (device/).
  struct temp_storage {
    T* warp_value;              // [kSpans]: each warp-pass's open value at its end
    std::uint32_t* warp_count;  // [kSpans]: its starts
    std::uint32_t* split;       // [kSpans]: its starts in lanes 0..15 (positions below 256)
    T* tile_excl;
    std::uint64_t* tile_count;
    unsigned long long* slot;
    std::uint64_t* bars;        // [P::passes]
    T* side_val;                // [kSpans * kSide]
    std::uint8_t* side_pos;     // [kSpans * kSide]
  };
  struct tile_state {
    warp::seg<T> pre[P::passes];  // the warp-pass's carry in the tile: f = starts before it
    std::uint32_t pinned;         // bit p: a warp of pass p parked in the stage
  };

  const temp_storage tmp;
  T* sums;
  std::int64_t *offsets, *num_segments;
  const int warp, lane;
  const tile::scan_count_chain_state<T> chains;
  tile::tile_stages<T, true, P> src;

  // desc: two zeroed words per tile, counter zeroed; grid: where the tiles sit (x, flags);
  // stages: P::stage_bytes<T, true>() of dynamic shared memory.
  __device__ __forceinline__ scd_runs_agent(temp_storage tmp, unsigned char* stages, const T* x,
                                            const std::uint8_t* flags, T* sums, std::int64_t* offsets,
                                            std::int64_t* num_segments, std::int64_t n, std::int64_t tiles,
                                            ulonglong2* desc, unsigned long long* counter, tile::tile_grid grid)
      : tmp(tmp), sums(sums), offsets(offsets), num_segments(num_segments), warp(threadIdx.x >> 5),
        lane(threadIdx.x & 31), chains{desc}, src{x, flags, n, tiles, grid, counter, tmp.slot, tmp.bars, stages} {}

  __device__ __forceinline__ T* stage_val(int p) const { return src.vals(0, p) + warp * 512; }
  __device__ __forceinline__ std::uint8_t* stage_pos(int p) const {
    return reinterpret_cast<std::uint8_t*>(src.bytes(0, p)) + warp * 512;
  }

  // The lane's 16 consecutive items of pass p and their start bits m, from global memory with
  // bounds (a tile not staged); item 0 of the input is always a start.
  __device__ __forceinline__ void load_global(std::int64_t t, int p, T (&v)[4][4], std::uint32_t& m) const {
    const std::int64_t first = src.pass_base(t, p) + warp * 512 + 16 * lane;
    m = 0;
#pragma unroll
    for (int i = 0; i < 16; ++i) {
      const std::int64_t g = first + i;
      const bool in = tile::in_range<P::shifted>(g, src.n);
      v[i / 4][i % 4] = in ? src.values[g] : tile::pad<P::shifted, T>();
      if (in && (g == 0 || src.flags[g] != 0)) m |= 1u << i;
    }
  }
  // The lane's 16 consecutive items from the stage, each 16-byte read rotated by (lane / 2) % 4
  // so that a quarter warp's reads meet distinct banks, then put back in order by selects.
  __device__ __forceinline__ void load_runs(int p, T (&v)[4][4]) const {
    const int r = (lane >> 1) & 3;
    const T* in = stage_val(p) + 16 * lane;
    T w[4][4];
#pragma unroll
    for (int j = 0; j < 4; ++j) tile::lds4(in + 4 * ((j + r) & 3), w[j]);  // w[j] = sub-chunk (j + r) % 4
#pragma unroll
    for (int j = 0; j < 4; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) v[j][e] = r & 2 ? w[(j + 2) & 3][e] : w[j][e];  // now sub-chunk (j + r % 2) % 4
#pragma unroll
    for (int j = 0; j < 4; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) w[j][e] = r & 1 ? v[(j + 3) & 3][e] : v[j][e];
#pragma unroll
    for (int j = 0; j < 4; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) v[j][e] = w[j][e];
  }

  // Pass p of tile t: the warp block's starts parked in rank order, its span and count shared.
  __device__ __forceinline__ void reduce_pass(std::int64_t t, int p) {
    const int i = p * P::warps + warp;
    const bool staged = src.staged(t);
    T v[4][4];
    std::uint32_t m;
    if (staged) {
      thread::mbarrier_wait(src.bar + p, src.phase & 1u);
      if (p == P::passes - 1) src.phase ^= 1u;
      const uint4 f = reinterpret_cast<const uint4*>(stage_pos(p))[lane];
      const std::uint32_t fw[4] = {thread::normalize_flags(f.x), thread::normalize_flags(f.y),
                                   thread::normalize_flags(f.z), thread::normalize_flags(f.w)};
      m = warp::start_mask(fw);
      const std::int64_t first = src.pass_base(t, p) + warp * 512 + 16 * lane;
      if (first <= 0 && first > -16) m |= 1u << int(-first);  // item 0 of the input
    } else {
      load_global(t, p, v, m);
    }
    if (!__any_sync(~0u, m != 0u)) {  // no start in the warp block: only its total is needed
      if (staged)
#pragma unroll
        for (int j = 0; j < 4; ++j) tile::lds4(stage_val(p) + 4 * lane + 128 * j, v[j]);
      const T total = warp::warp_total_cuda_cores(v);
      if (lane == 0) tmp.warp_value[i] = total, tmp.warp_count[i] = 0;
      return;
    }
    if (staged) load_runs(p, v);
    warp::seg<T> ex;
    const warp::seg<T> ws = warp::scan_counted(warp::lane_span(v, m), ex);
    const bool side = ws.f <= kSide;
    __syncwarp();  // every lane has read its items before the stage's part is overwritten
    warp::park_starts(v, m, ex.v, ex.f, 16 * lane, side ? tmp.side_val + i * kSide : stage_val(p),
                      side ? tmp.side_pos + i * kSide : stage_pos(p));
    if (lane == 0) tmp.warp_value[i] = ws.v, tmp.warp_count[i] = ws.f;
    if (lane == 16) tmp.split[i] = ex.f;
  }

  // After a barrier: the passes parked in the stage; the warps' carries; warp 0 looks back on
  // both chains, then thread 0 claims the next tile (the last tile also writes the segment
  // count, offsets[K] and the last sum).
  __device__ __forceinline__ void tile_prefix(std::int64_t t, tile_state& ts) {
    const bool mine = lane < kSpans;
    const warp::seg<T> e{mine ? tmp.warp_count[lane] : 0u, mine ? tmp.warp_value[lane] : T(0)};
    const std::uint32_t big = __ballot_sync(~0u, e.f > kSide);
    ts.pinned = 0;
#pragma unroll
    for (int p = 0; p < P::passes; ++p) ts.pinned |= ((big >> (p * P::warps)) & 0xffu ? 1u : 0u) << p;
    warp::seg<T> ex;
    const warp::seg<T> total = warp::scan_counted(e, ex);
#pragma unroll
    for (int p = 0; p < P::passes; ++p)
      ts.pre[p] = {__shfl_sync(~0u, ex.f, p * P::warps + warp), __shfl_sync(~0u, ex.v, p * P::warps + warp)};
    if (warp == 0) {
      T tex;
      std::uint64_t cex;
      chains.exclusive_prefix(t, total.v, total.f != 0u, total.f, tex, cex);
      if (lane == 0) {
        *tmp.tile_excl = tex, *tmp.tile_count = cex;
        src.claim();
        if (t == src.tiles - 1) {
          const std::uint64_t k = cex + total.f;
          *num_segments = std::int64_t(k);
          offsets[k] = src.n;
          sums[k - 1] = total.f ? total.v : tex + total.v;
        }
      }
    }
  }

  // After a barrier: lane j of the warp writes the j-th start of its warp block in pass p: its
  // offset and the sum of the segment before it (the warp's carry added to the first).
  __device__ __forceinline__ void sweep_pass(std::int64_t t, int p, const tile_state& ts) const {
    const int i = p * P::warps + warp;
    const std::uint32_t wc = tmp.warp_count[i];
    if (wc == 0) return;  // warp-uniform
    const bool side = wc <= kSide;
    const T* val = side ? tmp.side_val + i * kSide : stage_val(p);
    const std::uint8_t* pos = side ? tmp.side_pos + i * kSide : stage_pos(p);
    const std::uint32_t split = tmp.split[i];
    const T pv = ts.pre[p].f ? ts.pre[p].v : *tmp.tile_excl + ts.pre[p].v;
    const std::int64_t base = src.pass_base(t, p) + warp * 512;
    const std::uint64_t kw = *tmp.tile_count + ts.pre[p].f;
    for (std::uint32_t j = lane; j < wc; j += 32) {
      const std::uint64_t k = kw + j;
      offsets[k] = base + pos[j] + (j >= split ? 256 : 0);
      if (k > 0) sums[k - 1] = j == 0 ? val[0] + pv : val[j];
    }
  }

  // The persistent loop over the tiles the block claims; clock: per-tile cycles if set.
  __device__ __forceinline__ void consume(tile::tile_clock clock) {
    for (std::int64_t t = src.first(); t < src.tiles;) {
      clock.begin();
      tile_state ts;
#pragma unroll
      for (int p = 0; p < P::passes; ++p) reduce_pass(t, p);
      __syncthreads();
      tile_prefix(t, ts);
      __syncthreads();
      if (threadIdx.x == 0) {  // the passes parked beside the stage: copy them in now
#pragma unroll
        for (int p = 0; p < P::passes; ++p)
          if (!((ts.pinned >> p) & 1u)) src.start_pass(0, p);
        *static_cast<volatile unsigned long long*>(src.slot) = src.pending;  // next_tile's warps poll it
      }
#pragma unroll
      for (int p = 0; p < P::passes; ++p) {
        sweep_pass(t, p, ts);
        if ((ts.pinned >> p) & 1u) {  // block-uniform: the pass's stage is read; copy it in now
          __syncthreads();
          if (threadIdx.x == 0) src.start_pass(0, p);
        }
      }
      clock.end(t);
      t = next_tile(t);
    }
  }

  // The tile thread 0 claimed after tile t (a later one, so the slot has changed once it is
  // written: claims only grow, and the next write follows two barriers every warp passes).
  __device__ __forceinline__ std::int64_t next_tile(std::int64_t t) const {
    const volatile unsigned long long* slot = src.slot;
    std::int64_t next;
    while ((next = std::int64_t(*slot)) == t) __nanosleep(32);
    return next;
  }
};

}  // namespace mmv::gpu::agent
