// Warp layer: SCD's DIFFERENTIATION on the CUDA cores (V0), on lanes of 16 consecutive items
// (lane l holds items 16l..16l+15 of the warp block; agent/scd_runs loads them so). Each lane's
// span (its starts, the run since its last start), one 5-step warp scan of the spans with their
// start counts, then each start's value just before it with the run carried into the lane: no
// per-item scan, no chunk or row carries, and nothing is subtracted.
#pragma once
#include <cstdint>

#include "mmvram/gpu/warp/row_carry.cuh"

namespace mmv::gpu::warp {

// The segmented operator with counts: a followed by b; f = the starts in the span.
template <class T>
__device__ __forceinline__ seg<T> combine_counted(seg<T> a, seg<T> b) {
  return {a.f + b.f, b.f ? b.v : a.v + b.v};
}

// Inclusive scan of one counted span per lane (lane order): ex = the lanes before this one
// ({0, 0} for lane 0); returns the warp's span (lanes that hold nothing pass {0, 0}).
template <class T>
__device__ __forceinline__ seg<T> scan_counted(seg<T> in, seg<T>& ex) {
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int k = 1; k < 32; k *= 2) {
    const seg<T> y = shfl_up(in, k);
    if (lane >= k) in = combine_counted(y, in);
  }
  ex = shfl_up(in, 1);
  if (lane == 0) ex = {0u, T(0)};
  return {__shfl_sync(~0u, in.f, 31), __shfl_sync(~0u, in.v, 31)};
}

// Bit 4j + e = item 4j + e of the lane is a start, from its four normalized flag words (byte e
// of fw[j] is 0 or 1): the multiply gathers bytes 0..3 into bits 24..27 with no carries.
__device__ __forceinline__ std::uint32_t start_mask(const std::uint32_t (&fw)[4]) {
  std::uint32_t m = 0;
#pragma unroll
  for (int j = 0; j < 4; ++j) m |= ((fw[j] * 0x01020408u) >> 24) << (4 * j);
  return m;
}

// The lane's span: its starts (bits of m) and the run from its last start on (all 16 items if
// none).
template <class T>
__device__ __forceinline__ seg<T> lane_span(const T (&v)[4][4], std::uint32_t m) {
  T run = v[0][0];
#pragma unroll
  for (int i = 1; i < 16; ++i) run = (m >> i) & 1u ? v[i / 4][i % 4] : run + v[i / 4][i % 4];
  return {std::uint32_t(__popc(m)), run};
}

// DIFFERENTIATION of the lane: its j-th start (item i) gets val[r + j] = the value of the segment
// that ends just before it (`carry`, the value open where the lane begins, plus the items before
// i for the first one) and pos[r + j] = the low byte of its warp offset o + i; r = the starts
// before the lane in the warp block.
template <class T>
__device__ __forceinline__ void park_starts(const T (&v)[4][4], std::uint32_t m, T carry, std::uint32_t r, int o,
                                            T* val, std::uint8_t* pos) {
  T run = carry;
#pragma unroll
  for (int i = 0; i < 16; ++i) {
    if ((m >> i) & 1u) {
      val[r] = run, pos[r] = std::uint8_t(o + i), ++r;
      run = v[i / 4][i % 4];
    } else {
      run = run + v[i / 4][i % 4];
    }
  }
}

}  // namespace mmv::gpu::warp
