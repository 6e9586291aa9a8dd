// Agent layer: the single-pass split chain of the CUDA-core state propagation (state_passing.hpp).
// A block owns 32 lanes of one decay row and one span of W consecutive segments of K·16 chunks,
// one warp a segment. Each warp stages its segment's local states in shared memory (cp.async)
// and scans them from a zero carry (the recurrence in chunk order); the warps fold their end
// states in shared memory into the span's, which the block publishes; every warp writes the
// states from its first start on (final: a start drops the carry) and those whose carry the
// span's earlier warps fix; the rest wait for the carry into the span, taken by a decoupled
// look-back over the spans before it (its first word read before the scan), and add P_i · carry
// (P_i: the product of the decays from the segment's first chunk to chunk i). Every state is
// read and written once.
#pragma once
#include <cstdint>

#include "mmvram/gpu/agent/state_passing.cuh"
#include "mmvram/gpu/thread/bulk_copy.cuh"
#include "mmvram/gpu/tile/lookback.cuh"

namespace mmv::gpu::agent {

// The look-back word of (span, lane): a tag in bits 32..63, epoch · 2 + 1 when the value is the
// state after the span's last chunk, epoch · 2 when it is the end state from a zero carry (an
// aggregate: the span holds no start), the fp32 value below. Words of other epochs are stale
// (another call's) and read as not yet published.
__device__ __forceinline__ std::uint64_t split_word(std::uint32_t epoch, bool final, float v) {
  return (std::uint64_t(epoch * 2u + (final ? 1u : 0u)) << 32) | __float_as_uint(v);
}

template <int K, int W, class In>
struct state_passing_split_agent {
  static constexpr int kChunks = K * warp::kTileChunks, kGroups = (kChunks + 31) / 32, kSpan = W * kChunks;
  // The block's shared memory: the staged local states, the zero-carry states (fp32: over the
  // local states), each warp's zero-carry end state, decay product and first start (kChunks:
  // none), and the carry into the span.
  static constexpr bool kInStage = sizeof(In) == sizeof(float);
  struct shared {
    __align__(16) In stage[W][kChunks * 32];
    float held[W][kInStage ? 1 : kChunks * 32];
    float end[W][32], product[W][32], carry[32];
    int first[W];
  };
  const state_passing_params<In, float>& p;
  shared& s;
  int lane, w;
  std::int64_t span, begin, end, row_stride, base;
  const float* decay;

  __device__ __forceinline__ state_passing_split_agent(const state_passing_params<In, float>& p, std::int64_t group,
                                                       std::int64_t span, shared& s)
      : p(p), s(s), lane(threadIdx.x % 32), w(threadIdx.x / 32), span(span) {
    const std::int64_t head = group * 32 / p.lanes_per_head, x0 = group * 32 % p.lanes_per_head;
    row_stride = p.lane_groups * 32, base = group * 32 + lane;
    decay = p.log_decay + head * p.head_stride + (p.per_row ? x0 / p.cols : 0);
    begin = span * kSpan + w * kChunks;
    end = begin + kChunks < p.chunks ? begin + kChunks : p.chunks;  // below begin: an empty segment
  }

  // The segment's states, written once each.
  __device__ __forceinline__ void run() const {
    float l[kGroups];  // the log decay and start byte of chunk begin + 32m + lane (0 past end)
    std::uint8_t start[kGroups];
#pragma unroll
    for (int m = 0; m < kGroups; ++m) {
      const std::int64_t c = begin + 32 * m + lane;
      const bool mine = 32 * m + lane < kChunks && c < end;
      l[m] = mine ? decay[c * p.chunk_stride] : 0.f;
      start[m] = mine && p.starts != nullptr ? p.starts[c] : std::uint8_t(0);
    }
    In* stage = s.stage[w];
    stage_local(stage);
    std::uint64_t* word = p.lookback + span * row_stride + base;
    const std::uint64_t ahead = w == 0 && span > 0 ? tile::load_relaxed(word - row_stride) : 0;
    float alpha[kGroups];
    std::uint32_t starts[kGroups];
#pragma unroll
    for (int m = 0; m < kGroups; ++m) {
      alpha[m] = warp::exp_of(l[m]);
      starts[m] = __ballot_sync(0xffffffffu, start[m] != 0);
    }
    int first = kChunks;
#pragma unroll
    for (int m = kGroups - 1; m >= 0; --m)
      if (starts[m] != 0) first = 32 * m + __ffs(int(starts[m])) - 1;
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    __syncwarp();
    // The zero-carry states, each lane its own column; past end the decay is 1 and the local
    // state 0, so the carry stays.
    float* held = kInStage ? reinterpret_cast<float*>(stage) : s.held[w];
    float carry = 0.f, product = 1.f;
    const auto state = [&](int i) -> float& { return held[i * 32 + lane]; };
#pragma unroll
    for (int i = 0; i < kChunks; ++i) {
      const float a = __shfl_sync(0xffffffffu, alpha[i / 32], i % 32), u = value_of(stage[i * 32 + lane]);
      carry = warp::starts_at(starts[i / 32], i % 32) ? u : a * carry + u;
      product *= a;
      state(i) = carry;
    }
    s.end[w][lane] = carry, s.product[w][lane] = product;
    if (lane == 0) s.first[w] = first;
    __syncthreads();
    // The carry into this segment as pre_b + pre_a · (the carry into the span), or pre_b alone
    // (known) where the span is the first or a start lies in an earlier segment of it.
    bool known = span == 0;
    float pre_a = 1.f, pre_b = 0.f;
#pragma unroll
    for (int j = 0; j < W - 1; ++j)
      if (j < w) {
        const bool cut = s.first[j] < kChunks;
        pre_b = cut ? s.end[j][lane] : fmaf(s.product[j][lane], pre_b, s.end[j][lane]);
        pre_a *= s.product[j][lane];
        known = known || cut;
      }
    const bool last = w == W - 1, span_final = known || first < kChunks;
    const float span_end = first < kChunks ? carry : fmaf(product, pre_b, carry);
    if (last) tile::store_relaxed(word, split_word(p.epoch, span_final, span_end));
    float* dst = p.states + begin * row_stride + base;
#pragma unroll
    for (int i = 0; i < kChunks; ++i)
      if (i >= first && begin + i < end) dst[i * row_stride] = state(i);
    if (known) write_head(pre_b, first, alpha, state);
    if (span == 0 || s.first[0] == 0) return;  // no warp needs the carry into the span
    if (w == 0) s.carry[lane] = carry_in(ahead);
    __syncthreads();
    const float in = s.carry[lane];
    if (last && !span_final) tile::store_relaxed(word, split_word(p.epoch, true, fmaf(pre_a * product, in, span_end)));
    if (!known) write_head(fmaf(pre_a, in, pre_b), first, alpha, state);
  }

 private:
  // Writes h_i = P_i · in + z_i for the chunks i < head.
  template <class State>
  __device__ __forceinline__ void write_head(float in, int head, const float (&alpha)[kGroups], const State& state) const {
    float product = 1.f;
    float* dst = p.states + begin * row_stride + base;
#pragma unroll
    for (int i = 0; i < kChunks; ++i, dst += row_stride) {
      const float a = __shfl_sync(0xffffffffu, alpha[i / 32], i % 32);
      if (i < head) {
        product *= a;
        if (begin + i < end) *dst = fmaf(product, in, state(i));
      }
    }
  }

  // Copies the segment's local states as stored (0 past end) into stage, row i at i · 32, by
  // cp.async (all in flight at once): 16 bytes a lane where the local states are 16-byte aligned
  // (a warp copy covers 512 / (32 · sizeof(In)) rows), else fp32 a lane its own column, bf16
  // two rows a warp copy of 4-byte pairs (plain loads when not even 4-byte aligned).
  __device__ __forceinline__ void stage_local(In* stage) const {
    const In* rows = p.local + begin * row_stride + (base - lane);  // row i: rows + i · row_stride
    constexpr int kPerCopy = 16 / sizeof(In);  // elements a lane, rows a warp copy
    if ((reinterpret_cast<std::uintptr_t>(p.local) & 15) == 0) {
      const int row = lane / (32 / kPerCopy), col = lane % (32 / kPerCopy) * kPerCopy;
#pragma unroll
      for (int i = 0; i < kChunks; i += kPerCopy)
        copy_async16(stage + (i + row) * 32 + col, rows + (i + row) * row_stride + col, begin + i + row < end);
    } else if constexpr (sizeof(In) == 4) {
#pragma unroll
      for (int i = 0; i < kChunks; ++i) copy_async4(stage + i * 32 + lane, rows + lane, begin + i < end), rows += row_stride;
    } else if ((reinterpret_cast<std::uintptr_t>(p.local) & 3) == 0) {
      const int half = lane / 16, col = 2 * (lane % 16);
#pragma unroll
      for (int i = 0; i < kChunks; i += 2)
        copy_async4(stage + (i + half) * 32 + col, rows + (i + half) * row_stride + col, begin + i + half < end);
    } else {
#pragma unroll
      for (int i = 0; i < kChunks; ++i) stage[i * 32 + lane] = begin + i < end ? rows[i * row_stride + lane] : In(0);
    }
    asm volatile("cp.async.commit_group;" ::: "memory");
  }

  // cp.async of 16 bytes from src into shared memory at dst (L2 only), or 16 zero bytes (nothing
  // read) when !valid.
  static __device__ __forceinline__ void copy_async16(void* dst, const void* src, bool valid) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(thread::smem_addr(dst)), "l"(src),
                 "r"(valid ? 16 : 0)
                 : "memory");
  }

  // cp.async of 4 bytes from src into shared memory at dst, or 4 zero bytes (nothing read) when
  // !valid.
  static __device__ __forceinline__ void copy_async4(void* dst, const void* src, bool valid) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(thread::smem_addr(dst)), "l"(src),
                 "r"(valid ? 4 : 0)
                 : "memory");
  }

  // The state after chunk span · kSpan − 1: walking back k = span − 1, ..., carry = x + P · h_end(k)
  // until a final word (h_end(k) itself); an aggregate b gives h_end(k) = A_k · h_end(k − 1) + b,
  // A_k the decay product of span k (a full span without a start). Stops early where P reaches
  // 0. Span 0's word is always final. ahead: span − 1's word as read before the scan.
  __device__ __forceinline__ float carry_in(std::uint64_t ahead) const {
    float x = 0.f, product = 1.f;
    bool done = false;
    std::uint64_t word = ahead;
    for (std::int64_t k = span - 1;; --k) {
      const std::uint64_t* at = p.lookback + k * row_stride + base;
      if (k < span - 1) word = tile::load_relaxed(at);
      while (!__all_sync(0xffffffffu, std::uint32_t(word >> 33) == p.epoch)) word = tile::load_relaxed(at);
      if (!done) {
        x = fmaf(product, __uint_as_float(std::uint32_t(word)), x);
        done = (word >> 32) & 1u;
      }
      if (__all_sync(0xffffffffu, done)) return x;
      float a = 1.f;
#pragma unroll
      for (int m = 0; m < (kSpan + 31) / 32; ++m)
        if (32 * m + lane < kSpan) a *= warp::exp_of(decay[(k * kSpan + 32 * m + lane) * p.chunk_stride]);
#pragma unroll
      for (int d = 16; d >= 1; d /= 2) a *= __shfl_xor_sync(0xffffffffu, a, d);
      if (!done) {
        product *= a;
        done = product == 0.f;
      }
      if (__all_sync(0xffffffffu, done)) return x;
    }
  }
};

}  // namespace mmv::gpu::agent
