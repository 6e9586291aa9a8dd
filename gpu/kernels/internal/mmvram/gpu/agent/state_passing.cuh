// Agent layer: the inter-chunk state propagation (state_passing.hpp). One warp owns 32 lanes of
// one decay row and one segment of chunks and walks it a tile at a time (Scan::kSubtiles subtiles
// of 16 chunks): the local states, log decays and start flags of the next Scan::kDepth tiles are
// in flight while the current tile is scanned, its decays reach every lane by shuffles and its
// starts by a ballot, and each subtile is scanned by a scan policy (the unit of
// state_passing_method, warp/decayed_tile). When the chunks are cut into segments
// (reduce-then-scan), segment_totals() gives each segment's (decay product, end state) from a
// zero carry and states() then starts every segment from its carry.
#pragma once
#include <cstdint>

#include "mmvram/gpu/warp/decayed_tile.cuh"

namespace mmv::gpu::agent {

inline constexpr int kStateWarpsPerBlock = 4;

// One launch's operands (device pointers) and shape, in lanes of 32 (lane groups).
template <class In, class Real>
struct state_passing_params {
  const In* local;
  const Real* log_decay;
  const std::uint8_t* starts;          // nullptr: none
  const std::int64_t* chunk_offsets;   // per-sequence grid (blockIdx.y = sequence), else nullptr
  Real* states;
  Real *segment_decay, *segment_state;  // [segments][lanes]: aggregates, then carries in segment_decay
  std::int64_t chunks, lanes_per_head, lane_groups, chunk_stride, head_stride;
  std::int64_t segment_chunks;          // 0: one segment
  int cols;
  bool per_row;
  std::uint64_t* lookback = nullptr;  // split chain (agent/state_passing_split.cuh): [spans][lanes] words
  std::uint32_t epoch = 0;            // the call's tag in them
};

// A local state as loaded (fp32, fp64 or bf16 bits) to its value.
__device__ __forceinline__ float value_of(float x) { return x; }
__device__ __forceinline__ double value_of(double x) { return x; }
__device__ __forceinline__ float value_of(std::uint16_t x) { return __uint_as_float(std::uint32_t(x) << 16); }

// Scan policies (state_passing_method): CUDA cores, the serial recurrence per lane. kSubtiles:
// subtiles of 16 chunks a tile (at most 2: one log decay a lane); kDepth: tiles loaded ahead.
template <int Subtiles = 2, int Depth = 2>
struct serial_scan {
  static constexpr int kSubtiles = Subtiles, kDepth = Depth;
  template <bool ExactData, class Real>
  static __device__ __forceinline__ void scan(Real (&v)[warp::kTileChunks], const Real (&l)[warp::kTileChunks],
                                              std::uint32_t starts, Real& carry, float*) {
    warp::serial_decayed_scan(v, l, starts, carry);
  }
};

// Tensor cores: the masked decay matrix times the tile (Speculative: the unmasked product,
// repaired at the starts); smem: this warp's kTileChunks × kSmemRowStride floats.
template <bool Speculative>
struct mma_scan {
  static constexpr int kSubtiles = 1, kDepth = 1;
  template <bool ExactData, class Real>
  static __device__ __forceinline__ void scan(Real (&v)[warp::kTileChunks], const Real (&l)[warp::kTileChunks],
                                              std::uint32_t starts, Real& carry, float* smem) {
    warp::mma_decayed_scan<Speculative, ExactData>(v, l, starts, carry, smem);
  }
};

// The warp of lane group `group` (< p.lane_groups) in the block's segment or sequence.
// ExactData: local holds bf16 values the tensor-core scans keep exact.
template <bool ExactData, class In, class Real>
struct state_passing_agent {
  static constexpr int kTile = warp::kTileChunks;
  const state_passing_params<In, Real>& p;
  int lane;
  std::int64_t row_stride, base, begin, end, slot;
  const Real* decay;

  __device__ __forceinline__ state_passing_agent(const state_passing_params<In, Real>& p, std::int64_t group)
      : p(p), lane(threadIdx.x % 32) {
    const std::int64_t head = group * 32 / p.lanes_per_head, x0 = group * 32 % p.lanes_per_head;
    row_stride = p.lane_groups * 32, base = group * 32 + lane;
    decay = p.log_decay + head * p.head_stride + (p.per_row ? x0 / p.cols : 0);
    begin = 0, end = p.chunks;
    if (p.chunk_offsets != nullptr) {
      begin = p.chunk_offsets[blockIdx.y];
      end = p.chunk_offsets[blockIdx.y + 1];
    } else if (p.segment_chunks > 0) {
      begin = blockIdx.y * p.segment_chunks;
      end = begin + p.segment_chunks < p.chunks ? begin + p.segment_chunks : p.chunks;
    }
    slot = blockIdx.y * row_stride + base;
  }

  // The states of the warp's chunks, scanned by Scan from the segment's carry (0 for the first).
  template <class Scan>
  __device__ __forceinline__ void states(float* smem) const {
    Real carry = p.segment_chunks > 0 && blockIdx.y > 0 ? p.segment_decay[slot] : Real(0);
    for_each_subtile<Scan::kSubtiles, Scan::kDepth>([&](std::int64_t j0, Real(&v)[kTile], const Real(&l)[kTile],
                                                        std::uint32_t starts) {
      Scan::template scan<ExactData>(v, l, starts, carry, smem);
#pragma unroll
      for (int i = 0; i < kTile; ++i)
        if (j0 + i < end) p.states[(j0 + i) * row_stride + base] = v[i];
    });
  }

  // The segment's aggregates: decay product (−1 where a start cuts it) and end state from a zero
  // carry, into segment_decay and segment_state.
  __device__ __forceinline__ void segment_totals() const {
    Real carry = 0, decay_sum = 0;
    bool restarted = false;
    using scan = serial_scan<>;
    for_each_subtile<scan::kSubtiles, scan::kDepth>([&](std::int64_t, Real(&v)[kTile], const Real(&l)[kTile],
                                                        std::uint32_t starts) {
      warp::serial_decayed_scan(v, l, starts, carry);
      restarted = restarted || starts != 0;
#pragma unroll
      for (int i = 0; i < kTile; ++i) decay_sum += l[i];
    });
    p.segment_decay[slot] = restarted ? Real(-1) : warp::exp_of(decay_sum);
    p.segment_state[slot] = carry;
  }

 private:
  // Issues the loads of tile t0: its local states as stored (0 past end) into u, and the log
  // decay and start byte of chunk t0 + lane (lane < 16 K) into l and start. Nothing here uses
  // the loaded registers, so nothing waits for them until the tile is scanned.
  template <int K>
  __device__ __forceinline__ void load_tile(std::int64_t t0, In (&u)[K][kTile], Real& l, std::uint8_t& start) const {
    const In* src = p.local + t0 * row_stride + base;
#pragma unroll
    for (int k = 0; k < K; ++k)
#pragma unroll
      for (int i = 0; i < kTile; ++i, src += row_stride) u[k][i] = t0 + k * kTile + i < end ? *src : In(0);
    const bool mine = lane < K * kTile && t0 + lane < end;
    l = mine ? decay[(t0 + lane) * p.chunk_stride] : Real(0);
    start = mine && p.starts != nullptr ? p.starts[t0 + lane] : std::uint8_t(0);
  }

  // f(j0, v, l, starts) for each subtile of 16 chunks [j0, j0 + 16) of [begin, end), in order:
  // v its local states (0 past end), l its log decays, starts its start bits. Tiles of K subtiles
  // are loaded D tiles ahead into a ring of D + 1 tiles, unrolled so that every slot is a register.
  template <int K, int D, class F>
  __device__ __forceinline__ void for_each_subtile(F&& f) const {
    constexpr int R = D + 1, T = K * kTile;
    In u[R][K][kTile];
    Real tile_l[R];
    std::uint8_t tile_start[R];
#pragma unroll
    for (int s = 0; s < D; ++s) load_tile<K>(begin + s * T, u[s], tile_l[s], tile_start[s]);
    for (std::int64_t j0 = begin; j0 < end; j0 += R * T) {
#pragma unroll
      for (int s = 0; s < R; ++s) {
        const std::int64_t t0 = j0 + s * T;
        if (t0 >= end) break;
        load_tile<K>(t0 + D * T, u[(s + D) % R], tile_l[(s + D) % R], tile_start[(s + D) % R]);
        const std::uint32_t starts = __ballot_sync(0xffffffffu, tile_start[s] != 0);
#pragma unroll
        for (int k = 0; k < K; ++k) {
          Real v[kTile], l[kTile];
#pragma unroll
          for (int i = 0; i < kTile; ++i) {
            v[i] = Real(value_of(u[s][k][i]));
            l[i] = __shfl_sync(0xffffffffu, tile_l[s], k * kTile + i);
          }
          f(t0 + k * kTile, v, l, starts >> (k * kTile));
        }
      }
    }
  }
};

}  // namespace mmv::gpu::agent
