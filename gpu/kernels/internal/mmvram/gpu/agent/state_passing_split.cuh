// Agent layer: the single-pass split chain of the CUDA-core state propagation (state_passing.hpp).
// One warp owns 32 lanes of one decay row and one segment of K·16 chunks, held in registers: it
// scans the segment from a zero carry (the recurrence in chunk order), publishes its end state,
// writes the states from the segment's first start on (final: a start drops the carry), takes
// the carry into the segment by a decoupled look-back over the segments before it, adds
// P_i · carry to the states before the first start (P_i: the product of the decays from the
// segment's first chunk to chunk i) and writes them. Every state is read and written once.
#pragma once
#include <cstdint>

#include "mmvram/gpu/agent/state_passing.cuh"
#include "mmvram/gpu/thread/bulk_copy.cuh"
#include "mmvram/gpu/tile/lookback.cuh"

namespace mmv::gpu::agent {

// The look-back word of (segment, lane): a tag in bits 32..63, epoch · 2 + 1 when the value is the
// state after the segment's last chunk, epoch · 2 when it is the end state from a zero carry
// (an aggregate: the segment holds no start), the fp32 value below. Words of other epochs are
// stale (another call's) and read as not yet published.
__device__ __forceinline__ std::uint64_t split_word(std::uint32_t epoch, bool final, float v) {
  return (std::uint64_t(epoch * 2u + (final ? 1u : 0u)) << 32) | __float_as_uint(v);
}

template <int K, class In>
struct state_passing_split_agent {
  static constexpr int kChunks = K * warp::kTileChunks, kGroups = (kChunks + 31) / 32;
  const state_passing_params<In, float>& p;
  int lane;
  std::int64_t segment, begin, end, row_stride, base;
  const float* decay;

  __device__ __forceinline__ state_passing_split_agent(const state_passing_params<In, float>& p, std::int64_t group,
                                                       std::int64_t segment)
      : p(p), lane(threadIdx.x % 32), segment(segment) {
    const std::int64_t head = group * 32 / p.lanes_per_head, x0 = group * 32 % p.lanes_per_head;
    row_stride = p.lane_groups * 32, base = group * 32 + lane;
    decay = p.log_decay + head * p.head_stride + (p.per_row ? x0 / p.cols : 0);
    begin = segment * kChunks;
    end = begin + kChunks < p.chunks ? begin + kChunks : p.chunks;
  }

  // The segment's states, written once each. stage: this warp's kChunks × 32 local states in
  // shared memory.
  __device__ __forceinline__ void run(In* stage) const {
    float l[kGroups];  // the log decay and start byte of chunk begin + 32m + lane (0 past end)
    std::uint8_t start[kGroups];
#pragma unroll
    for (int m = 0; m < kGroups; ++m) {
      const std::int64_t c = begin + 32 * m + lane;
      const bool mine = 32 * m + lane < kChunks && c < end;
      l[m] = mine ? decay[c * p.chunk_stride] : 0.f;
      start[m] = mine && p.starts != nullptr ? p.starts[c] : std::uint8_t(0);
    }
    stage_local(stage);
    float alpha[kGroups];
    std::uint32_t starts[kGroups];
#pragma unroll
    for (int m = 0; m < kGroups; ++m) {
      alpha[m] = warp::exp_of(l[m]);
      starts[m] = __ballot_sync(0xffffffffu, start[m] != 0);
    }
    int first = kChunks;  // the segment's first start (kChunks: none)
#pragma unroll
    for (int m = kGroups - 1; m >= 0; --m)
      if (starts[m] != 0) first = 32 * m + __ffs(int(starts[m])) - 1;
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    __syncwarp();
    // The zero-carry states: fp32 over the local states in stage (each lane its own column),
    // bf16 in registers.
    constexpr bool kInStage = sizeof(In) == sizeof(float);
    float v[kInStage ? 1 : kChunks], carry = 0.f;
    const auto state = [&](int i) -> float& {
      if constexpr (kInStage) return reinterpret_cast<float*>(stage)[i * 32 + lane];
      else return v[i];
    };
#pragma unroll
    for (int i = 0; i < kChunks; ++i) {
      const float a = __shfl_sync(0xffffffffu, alpha[i / 32], i % 32), u = value_of(stage[i * 32 + lane]);
      carry = warp::starts_at(starts[i / 32], i % 32) ? u : a * carry + u;
      state(i) = carry;
    }
    const bool final = segment == 0 || first < kChunks;
    const std::int64_t word = segment * row_stride + base;
    tile::store_relaxed(p.lookback + word, split_word(p.epoch, final, carry));
    const int head = segment == 0 ? 0 : first;  // states before it need the carry
    float* dst = p.states + begin * row_stride + base;
#pragma unroll
    for (int i = 0; i < kChunks; ++i, dst += row_stride)
      if (i >= head && begin + i < end) *dst = state(i);
    if (head == 0) return;
    const float in = carry_in();
    float product = 1.f;
    dst = p.states + begin * row_stride + base;
#pragma unroll
    for (int i = 0; i < kChunks; ++i, dst += row_stride) {
      const float a = __shfl_sync(0xffffffffu, alpha[i / 32], i % 32);
      if (i < head) {
        product *= a;
        if (begin + i < end) *dst = fmaf(product, in, state(i));
      }
    }
    if (!final) tile::store_relaxed(p.lookback + word, split_word(p.epoch, true, fmaf(product, in, carry)));
  }

 private:
  // Copies the segment's local states as stored (0 past end) into stage, row i at i · 32, by
  // cp.async (all in flight at once): fp32 a lane its own column, bf16 two rows a warp copy of
  // 4-byte pairs (plain loads when the local states are not 4-byte aligned).
  __device__ __forceinline__ void stage_local(In* stage) const {
    const In* rows = p.local + begin * row_stride + (base - lane);  // row i: rows + i · row_stride
    if constexpr (sizeof(In) == 4) {
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

  // cp.async of 4 bytes from src into shared memory at dst, or 4 zero bytes (nothing read) when
  // !valid.
  static __device__ __forceinline__ void copy_async4(void* dst, const void* src, bool valid) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(thread::smem_addr(dst)), "l"(src),
                 "r"(valid ? 4 : 0)
                 : "memory");
  }

  // The state after chunk begin − 1: walking back k = segment − 1, ..., carry = x + P · h_end(k)
  // until a final word (h_end(k) itself); an aggregate b gives h_end(k) = A_k · h_end(k − 1) + b,
  // A_k the decay product of segment k (a full segment without a start). Stops early where P
  // reaches 0. Segment 0's word is always final.
  __device__ __forceinline__ float carry_in() const {
    float x = 0.f, product = 1.f;
    bool done = false;
    for (std::int64_t k = segment - 1;; --k) {
      float a = 1.f;
#pragma unroll
      for (int m = 0; m < kGroups; ++m)
        if (32 * m + lane < kChunks) a *= warp::exp_of(decay[(k * kChunks + 32 * m + lane) * p.chunk_stride]);
#pragma unroll
      for (int d = 16; d >= 1; d /= 2) a *= __shfl_xor_sync(0xffffffffu, a, d);
      std::uint64_t w;
      do w = tile::load_relaxed(p.lookback + k * row_stride + base);
      while (!__all_sync(0xffffffffu, std::uint32_t(w >> 33) == p.epoch));
      if (!done) {
        x = fmaf(product, __uint_as_float(std::uint32_t(w)), x);
        if ((w >> 32) & 1u) done = true;
        else product *= a;
        done = done || product == 0.f;
      }
      if (__all_sync(0xffffffffu, done)) return x;
    }
  }
};

}  // namespace mmv::gpu::agent
