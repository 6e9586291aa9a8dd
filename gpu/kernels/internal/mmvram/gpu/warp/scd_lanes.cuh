// Warp layer: SCD's DIFFERENTIATION on the CUDA cores (V0), one segmented scan for values and
// start counts together. Each lane-chunk is a counted span (its starts, A[c][3]); the scan over
// the warp's chunks (a row's four lanes by shuffles, then the rows as in row_carry.cuh) adds the
// counts and joins the values, so each chunk learns both the open segment's value before it and
// the number of starts before it in the warp block: no separate flag scan, no search for the
// warp's first start (it is the start with no start before it).
#pragma once
#include <cstdint>

#include "mmvram/gpu/warp/revert.cuh"

namespace mmv::gpu::warp {

// The segmented operator with counts: a followed by b; f = the starts in the span.
template <class T>
__device__ __forceinline__ seg<T> combine_counted(seg<T> a, seg<T> b) {
  return {a.f + b.f, b.f ? b.v : a.v + b.v};
}

// DIFFERENTIATION of a warp block holding a start, from A = its REVERTed in-lane scans
// (revert_in_lanes). At each start (byte e of fw[c]): d[c][e] = the in-warp segmented scan just
// before it; byte e of fb[c] = the start's rank in its chunk (1..4), plus 0x40 for the warp's
// first start (its sum still needs the earlier warps' and tiles' prefix). ccarry[c] = the starts
// before chunk c in the warp block (a start's index there is ccarry[c] + rank - 1); wc = the
// block's starts. Other entries of d and fb are unspecified / 0. Returns the block's span (f 0/1).
template <class T>
__device__ __forceinline__ seg<T> differentiate_counted(const std::uint32_t (&fw)[4], const T (&A)[4][4],
                                                        T (&d)[4][4], std::uint32_t (&fb)[4],
                                                        std::uint32_t (&ccarry)[4], std::uint32_t& wc) {
  const int lane = threadIdx.x & 31, q = lane & 3;
  seg<T> ex[4], row[4], carry[4];
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    seg<T> in{std::uint32_t(__popc(fw[c])), A[c][3]};
#pragma unroll
    for (int k = 1; k < 4; k *= 2) {
      const seg<T> y = shfl_up(in, k);
      if (q >= k) in = combine_counted(y, in);
    }
    ex[c] = shfl_up(in, 1);
    if (q == 0) ex[c] = {0u, T(0)};
    row[c] = {__shfl_sync(~0u, in.f, lane | 3), __shfl_sync(~0u, in.v, lane | 3)};
  }
  const seg<T> ws = row_carry_by([](seg<T> a, seg<T> b) { return combine_counted(a, b); }, row, carry);
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    const seg<T> pre = combine_counted(carry[c], ex[c]);
    ccarry[c] = pre.f;
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const int ep = e > 0 ? e - 1 : 0;
      d[c][e] = e == 0 ? pre.v : open(fw[c], ep) ? A[c][ep] + pre.v : A[c][ep];
    }
    // byte e of fw * 0x01010101 = the starts at or before e (at most 4: no carries), kept at the
    // starts (fw * 0xff); the lowest start is the warp's first when none precedes the chunk
    fb[c] = (fw[c] * 0x01010101u) & (fw[c] * 0xffu);
    if (pre.f == 0) fb[c] |= (fw[c] & (0u - fw[c])) * 0x40u;
  }
  wc = ws.f;
  return {ws.f ? 1u : 0u, ws.v};
}

}  // namespace mmv::gpu::warp
