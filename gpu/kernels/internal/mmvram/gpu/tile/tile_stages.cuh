// Tile layer: a tile is P::passes passes of 4096 items, held in one of P::stages shared-memory
// stages (P: tile_policy).
// Tiles are handed out in order by one global counter. A block claims its next tile once its
// current tile has published its inclusive prefix (so no look-back waits on a tile parked behind
// another) and one thread starts the bulk copy of it (values, and flags if any) into the other
// stage, which runs while the current tile is finished and stored (or, with one stage, pass by
// pass as the final sweep frees the stage); each pass has its own mbarrier, so a pass computes
// while later ones still arrive.
// Between the passes and the final store, the stage holds each pass's partial results. The tile
// grid is shifted by grid.shift items (tile_grid) so that, when every array shares one
// misalignment, every tile but the first (which holds padding before item 0) and a partial last
// one is 16-byte aligned and staged; those two, and every tile when no shift aligns all arrays,
// read their passes from global memory instead.
#pragma once
#include <cstdint>

#include "mmvram/gpu/thread/bulk_copy.cuh"
#include "mmvram/gpu/thread/split.cuh"
#include "mmvram/gpu/tile/policy.cuh"
#include "mmvram/gpu/tile/tile_io.cuh"

namespace mmv::gpu::tile {

template <class T, bool Flags, class P>
struct tile_stages {
  static constexpr int kPasses = P::passes, kStages = P::stages, kTileItems = P::tile_items;
  static constexpr bool kShifted = P::shifted;  // else grid.shift is 0 and the code is the aligned kernels' own
  const T* values;
  const std::uint8_t* flags;    // unused without Flags
  std::int64_t n, tiles;        // tiles: ceil((n + grid.shift) / kTileItems)
  tile_grid grid;
  unsigned long long* counter;  // global, zeroed before the launch
  unsigned long long* slot;     // shared: the tile claimed next
  std::uint64_t* bar;           // shared: one mbarrier per pass of each stage
  unsigned char* smem;          // dynamic shared memory, P::stage_bytes<T, Flags>()
  std::uint32_t phase = 0;      // bit s: parity of stage s's next completion (all its passes)
  unsigned long long pending = 0;

  // Tile t is copied through the stage (aligned, all of it inside [0, n)).
  __device__ __forceinline__ bool staged(std::int64_t t) const {
    if constexpr (kShifted)
      return grid.aligned && t * kTileItems >= grid.shift && (t + 1) * kTileItems <= n + grid.shift;
    else return grid.aligned && (t + 1) * kTileItems <= n;
  }
  // The global index of pass p of tile t's first position (negative in tile 0 when shifted).
  __device__ __forceinline__ std::int64_t pass_base(std::int64_t t, int p) const {
    if constexpr (kShifted) return t * kTileItems + p * kPassItems - grid.shift;
    else return t * kTileItems + p * kPassItems;
  }
  __device__ __forceinline__ T* vals(int s, int p) const {
    return reinterpret_cast<T*>(smem) + s * kTileItems + p * kPassItems;
  }
  __device__ __forceinline__ std::uint32_t* bytes(int s, int p) const {
    return reinterpret_cast<std::uint32_t*>(smem + kStages * kTileItems * sizeof(T) + s * kTileItems + p * kPassItems);
  }

  // Thread 0: claims the next tile (start() uses it). A block's claims only grow (one atomicAdd
  // on a counter that starts at 0 each launch): SCD's next_tile waits for the slot to change.
  __device__ __forceinline__ void claim() { pending = atomicAdd(counter, 1ull); }
  // Thread 0: copies pass p of the claimed tile into stage s, whose last readers of that pass
  // are behind a barrier; pass 0 also publishes the tile to the block (after the next barrier).
  __device__ __forceinline__ void start_pass(int s, int p) {
    const std::int64_t t = std::int64_t(pending);
    if (p == 0) *slot = pending;
    if (t >= tiles || !staged(t)) return;
    const std::uint32_t vb = kPassItems * sizeof(T);
    std::uint64_t* b = bar + s * kPasses + p;
    const std::int64_t i = pass_base(t, p);
    thread::bulk_copy_arrive(b, Flags ? vb + kPassItems : vb);
    thread::bulk_copy(vals(s, p), values + i, vb, b);
    if constexpr (Flags) thread::bulk_copy(bytes(s, p), flags + i, kPassItems, b);
  }
  __device__ __forceinline__ void start(int s) {
#pragma unroll
    for (int p = 0; p < kPasses; ++p) start_pass(s, p);
  }
  // All threads: sets up the barriers and the block's first tile in stage 0.
  __device__ __forceinline__ std::int64_t first() {
    if (threadIdx.x == 0) {
      for (int i = 0; i < kStages * kPasses; ++i) thread::mbarrier_init(bar + i);
      claim();
      start(0);
    }
    __syncthreads();
    return claimed();
  }
  // All threads, between the current tile's published prefix (barrier) and its store: with two
  // stages, thread 0 starts the whole next tile's copy into the other stage (s: the current one).
  __device__ __forceinline__ void start_early(int s) {
    if (kStages == 2 && threadIdx.x == 0) start(s ^ 1);
  }
  // All threads, once pass p of the current tile has been read back from the stage for the last
  // time: with one stage, the next tile's pass p starts copying in right away (a barrier first).
  __device__ __forceinline__ void swept(int s, int p) {
    if constexpr (kStages == 1) {
      __syncthreads();
      if (threadIdx.x == 0) start_pass(s, p);
    }
  }
  // All threads, after the current tile is stored: the next tile and its stage.
  __device__ __forceinline__ std::int64_t next(int& s) {
    if constexpr (kStages == 2 || kPasses == 1) __syncthreads();  // else swept()'s barriers order *slot
    s = (s + 1) % kStages;
    return claimed();
  }
  // All threads, after a barrier that follows start(): the block's next tile.
  __device__ __forceinline__ std::int64_t claimed() const { return std::int64_t(*slot); }

  // All threads: this lane's chunks (layout as load_values) of pass p of tile t in stage s.
  __device__ __forceinline__ void load(std::int64_t t, int s, int p, int warp, int lane, T (&v)[4][4],
                                       std::uint32_t (&fw)[4]) {
    const std::int64_t base = pass_base(t, p);
    if (!staged(t)) {
      load_values<kShifted>(values, base, n, false, warp, lane, v);
      if constexpr (Flags) load_flags<kShifted>(flags, base, n, false, warp, lane, fw);
      return;
    }
    thread::mbarrier_wait(bar + s * kPasses + p, (phase >> s) & 1u);
    if (p == kPasses - 1) phase ^= 1u << s;
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      const int off = chunk_offset(warp, lane, c);
      lds4(vals(s, p) + off, v[c]);
      if constexpr (Flags) fw[c] = thread::normalize_flags(bytes(s, p)[off / 4]) | start_bit<kShifted>(base + off);
    }
  }

  // The lane's own items of pass p in stage s: partial results kept between pass and store.
  __device__ __forceinline__ void put(int s, int p, int warp, int lane, const T (&x)[4][4]) const {
#pragma unroll
    for (int c = 0; c < 4; ++c) sts4(vals(s, p) + chunk_offset(warp, lane, c), x[c]);
  }
  __device__ __forceinline__ void get(int s, int p, int warp, int lane, T (&x)[4][4]) const {
#pragma unroll
    for (int c = 0; c < 4; ++c) lds4(vals(s, p) + chunk_offset(warp, lane, c), x[c]);
  }
  // Four bytes per chunk (one per item) in the flag area of the stage.
  __device__ __forceinline__ void put_bytes(int s, int p, int warp, int lane, const std::uint32_t (&b)[4]) const {
#pragma unroll
    for (int c = 0; c < 4; ++c) bytes(s, p)[chunk_offset(warp, lane, c) / 4] = b[c];
  }
  __device__ __forceinline__ void get_bytes(int s, int p, int warp, int lane, std::uint32_t (&b)[4]) const {
#pragma unroll
    for (int c = 0; c < 4; ++c) b[c] = bytes(s, p)[chunk_offset(warp, lane, c) / 4];
  }
};

}  // namespace mmv::gpu::tile
