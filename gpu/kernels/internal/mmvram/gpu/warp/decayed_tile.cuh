// Warp layer of the state propagation (state_passing.hpp): the scan of one tile of 16 chunks ×
// 32 lanes that share one decay row, h_i = exp(l_i)·h_{i-1} + u_i restarted at starts, with the
// carry h_{-1} from the tile before. Thread `lane` holds column `lane` of the tile in v[0..15].
#pragma once
#include <cstdint>

#include "mmvram/gpu/thread/mma.cuh"

namespace mmv::gpu::warp {

constexpr int kTileChunks = 16;
constexpr int kSmemRowStride = 40;  // floats per chunk row in shared memory: conflict-free B loads

__device__ __forceinline__ float exp_of(float x) { return expf(x); }
__device__ __forceinline__ double exp_of(double x) { return exp(x); }

__device__ __forceinline__ bool starts_at(std::uint32_t starts, int i) { return (starts >> i) & 1u; }

// CUDA cores: the (start, decay, value) recurrence applied serially per lane.
template <class Real>
__device__ __forceinline__ void serial_decayed_scan(Real (&v)[kTileChunks], const Real (&l)[kTileChunks],
                                                    std::uint32_t starts, Real& carry) {
#pragma unroll
  for (int i = 0; i < kTileChunks; ++i) {
    carry = starts_at(starts, i) ? v[i] : exp_of(l[i]) * carry + v[i];
    v[i] = carry;
  }
}

// Row i of the tile's decay matrix at the columns j = q, q+4, q+8, q+12 this thread holds in the
// A fragments: L(i, j) = exp(l_{j+1} + ... + l_i) for j <= i (built by additions only), 0 above
// the diagonal and, when masked, 0 wherever a start lies in (j, i].
template <bool Masked>
__device__ __forceinline__ void decay_row(int i, int q, const float (&l)[kTileChunks], std::uint32_t starts,
                                          float (&entry)[4]) {
  float acc = 0.f;
  bool cut = false;
#pragma unroll
  for (int k = kTileChunks - 1; k >= 0; --k) {
    if ((k & 3) == q) entry[k >> 2] = (k > i || cut) ? 0.f : expf(acc);
    if (k <= i) {
      cut = cut || (Masked && starts_at(starts, k));
      acc += l[k];
    }
  }
}

// Tensor cores: D = L·U for the tile on mma.sync m16n8k8 tf32 (L and, unless ExactData, U as two
// tf32 parts: hi·hi + lo·hi + hi·lo), then per lane on the CUDA cores the carry term (masked: up
// to the first start) or, when speculative, the unsegmented carry and a repair at every start:
// h_i = spec_i − exp(l_r + ... + l_i)·spec_{r−1}. smem: 16 × kSmemRowStride floats of this warp.
template <bool Speculative, bool ExactData>
__device__ __forceinline__ void mma_decayed_scan(float (&v)[kTileChunks], const float (&l)[kTileChunks],
                                                 std::uint32_t starts, float& carry, float* smem) {
  using thread::mma_tf32;
  using thread::to_tf32;
  const int lane = threadIdx.x % 32, g = lane / 4, q = lane % 4;
#pragma unroll
  for (int i = 0; i < kTileChunks; ++i) smem[i * kSmemRowStride + lane] = v[i];
  float top[4], bottom[4];
  decay_row<!Speculative>(g, q, l, starts, top);
  decay_row<!Speculative>(g + 8, q, l, starts, bottom);
  std::uint32_t a_hi[2][4], a_lo[2][4];
#pragma unroll
  for (int s = 0; s < 2; ++s) {
    const float a[4] = {top[2 * s], bottom[2 * s], top[2 * s + 1], bottom[2 * s + 1]};
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      a_hi[s][r] = to_tf32(a[r]);
      a_lo[s][r] = to_tf32(a[r] - __uint_as_float(a_hi[s][r]));
    }
  }
  __syncwarp();
  float d[4][4] = {};
#pragma unroll
  for (int nt = 0; nt < 4; ++nt) {
#pragma unroll
    for (int s = 0; s < 2; ++s) {
      const float b0 = smem[(8 * s + q) * kSmemRowStride + 8 * nt + g];
      const float b1 = smem[(8 * s + q + 4) * kSmemRowStride + 8 * nt + g];
      const std::uint32_t h0 = to_tf32(b0), h1 = to_tf32(b1);
      mma_tf32(d[nt], a_hi[s], h0, h1);
      mma_tf32(d[nt], a_lo[s], h0, h1);
      if (!ExactData)
        mma_tf32(d[nt], a_hi[s], to_tf32(b0 - __uint_as_float(h0)), to_tf32(b1 - __uint_as_float(h1)));
    }
  }
  __syncwarp();
#pragma unroll
  for (int nt = 0; nt < 4; ++nt) {
    const int c = 8 * nt + 2 * q;
    smem[g * kSmemRowStride + c] = d[nt][0];
    smem[g * kSmemRowStride + c + 1] = d[nt][1];
    smem[(g + 8) * kSmemRowStride + c] = d[nt][2];
    smem[(g + 8) * kSmemRowStride + c + 1] = d[nt][3];
  }
  __syncwarp();
  float cum = 0.f, acc = 0.f, base = 0.f, previous = carry;
  bool seen = false;
#pragma unroll
  for (int i = 0; i < kTileChunks; ++i) {
    const float di = smem[i * kSmemRowStride + lane];
    cum += l[i];
    const bool start = starts_at(starts, i);
    if (Speculative) {
      const float spec = di + expf(cum) * carry;
      if (start) {
        base = previous;
        acc = l[i];
      } else {
        acc += l[i];
      }
      seen = seen || start;
      v[i] = seen ? spec - expf(acc) * base : spec;
      previous = spec;
    } else {
      seen = seen || start;
      v[i] = seen ? di : di + expf(cum) * carry;
    }
  }
  carry = v[kTileChunks - 1];
  __syncwarp();
}

}  // namespace mmv::gpu::warp
