// Warp layer: SSCR's REVERT and the joins inside a warp. Speculative (unsegmented) in-lane
// scans come from row_scan.cuh (lane_scan on the tensor cores, or its CUDA-core twin); an item after a segment start in its
// lane takes a value recomputed from the start instead (REVERT without subtraction, so no
// cancellation), and segments crossing lanes, rows and warps are joined with the segmented
// operator (plain additions).
#pragma once
#include <cstdint>
#include <type_traits>

#include "mmvram/gpu/warp/row_carry.cuh"
#include "mmvram/gpu/warp/row_scan.cuh"

namespace mmv::gpu::warp {

// Whether item e of a chunk is a segment start (byte e of its normalized flags).
__device__ __forceinline__ bool is_start(std::uint32_t fw, int e) { return (fw >> (8 * e)) & 1u; }
// Whether no start precedes item e in its lane (bytes 0..e of the chunk's flags are all 0).
__device__ __forceinline__ bool open(std::uint32_t fw, int e) { return !(fw & (0xffffffffu >> (24 - 8 * e))); }

// Warp offset of item e of chunk c of this lane (layout.cuh).
__device__ __forceinline__ std::uint32_t warp_offset(int lane, int c, int e) {
  return 16 * (4 * (lane >> 2) + c) + 4 * (lane & 3) + e;
}

// Warp-uniform: the warp offset of the warp's first start, 512 if none.
__device__ __forceinline__ std::uint32_t first_start(const std::uint32_t (&fw)[4]) {
  const int lane = threadIdx.x & 31;
  std::uint32_t first = 512;
#pragma unroll
  for (int c = 3; c >= 0; --c)
    if (fw[c]) first = warp_offset(lane, c, (__ffs(fw[c]) - 1) / 8);
  return __reduce_min_sync(~0u, first);
}

// Phase 1 (REVERT inside the lane), for m-tile M. A[c][e] (c = 2M, 2M + 1) = sum of the lane's
// items of chunk c from its last start <= e (or from the lane's item 0 if none) to e. Items
// with no start before them in the lane keep the speculative scan S; from a start
// on, the speculation is wrong and is recomputed on CUDA cores (the start's value, then running
// sums of at most 3 more items), so nothing is ever subtracted. int32 subtracts the scan just
// before the start instead (exact modulo 2^32, and v need not stay live).
template <int M, class T>
__device__ __forceinline__ void lane_values(const T (&S)[2][4], const T (&v)[4][4], const std::uint32_t (&fw)[4],
                                            T (&A)[4][4]) {
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const int c = 2 * M + h;
    if constexpr (std::is_same_v<T, float>) {
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const T repaired = e == 0 || is_start(fw[c], e) ? v[c][e] : A[c][e > 0 ? e - 1 : 0] + v[c][e];
        A[c][e] = open(fw[c], e) ? S[h][e] : repaired;
      }
    } else {  // int32: subtracting the scan before the start is exact (mod 2^32) and keeps v dead
      T base = T(0);
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        if (e > 0 && is_start(fw[c], e)) base = S[h][e - 1];
        A[c][e] = S[h][e] - base;
      }
    }
  }
}

// Phase 1 for the whole warp block: speculative in-lane scans on the tensor cores (frags from
// make_value_frags<T>(lane, true)), or on the CUDA cores when U says so, then the in-lane
// REVERT, one m-tile at a time.
template <unit U = unit::tensor_cores, class T, class Frags>
__device__ __forceinline__ void revert_in_lanes(const T (&v)[4][4], const Frags& frags,
                                                const std::uint32_t (&fw)[4], T (&A)[4][4]) {
  T S[2][4];
  if constexpr (U == unit::cuda_cores) {
    lane_scan_cuda_cores<0>(v, S);
    lane_values<0>(S, v, fw, A);
    lane_scan_cuda_cores<1>(v, S);
    lane_values<1>(S, v, fw, A);
  } else if constexpr (std::is_same_v<T, float>) {
    lane_scan<0>(v, frags, S);
    lane_values<0>(S, v, fw, A);
    lane_scan<1>(v, frags, S);
    lane_values<1>(S, v, fw, A);
  } else {
    T xs[4][4];
    lane_scan<0>(v, frags, S, xs);
    lane_values<0>(S, v, fw, A);
    lane_scan<1>(v, frags, S, xs);
    lane_values<1>(S, v, fw, A);
  }
}


// Phases 2-3 (carries inside the warp). Each lane-chunk is a span (any start, A[c][3]); a
// segmented scan over the row's 4 lanes (shuffles), then over the warp's rows (row_carry),
// gives each lane-chunk the span of all warp items before it, lc[c]. Items with no start
// before them in their lane add lc[c].v. fs = warp offset of the warp's first start (512 if
// none): the items before it still need the prefix of earlier warps and tiles. Returns the
// warp's span. Items = false (SCD) leaves A as it is: differentiate adds lc where needed.
template <bool Items = true, class T>
__device__ __forceinline__ seg<T> carry_lanes(const std::uint32_t (&fw)[4], T (&A)[4][4], T (&lc)[4],
                                              std::uint32_t& fs) {
  const int lane = threadIdx.x & 31, q = lane & 3;
  seg<T> ex[4], row[4], carry[4];
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    seg<T> in{fw[c] ? 1u : 0u, A[c][3]};
#pragma unroll
    for (int d = 1; d < 4; d *= 2) {
      const seg<T> y = shfl_up(in, d);
      if (q >= d) in = combine(y, in);
    }
    ex[c] = shfl_up(in, 1);
    if (q == 0) ex[c] = {0u, T(0)};
    row[c] = {__shfl_sync(~0u, in.f, lane | 3), __shfl_sync(~0u, in.v, lane | 3)};
  }
  const seg<T> ws = row_carry(row, carry);
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    lc[c] = combine(carry[c], ex[c]).v;
    if constexpr (Items) {
#pragma unroll
      for (int e = 0; e < 4; ++e)
        if (open(fw[c], e)) A[c][e] += lc[c];
    }
  }
  fs = first_start(fw);
  return ws;
}

// Last REVERT step: the items before the warp's first start (offset < fs) add pre.
template <class T>
__device__ __forceinline__ void add_prefix(std::uint32_t fs, T pre, T (&x)[4][4]) {
  if (fs == 0) return;
  if (fs >= 512) {  // no start in the warp: every item
#pragma unroll
    for (int c = 0; c < 4; ++c)
#pragma unroll
      for (int e = 0; e < 4; ++e) x[c][e] += pre;
    return;
  }
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int c = 0; c < 4; ++c)
#pragma unroll
    for (int e = 0; e < 4; ++e)
      if (warp_offset(lane, c, e) < fs) x[c][e] += pre;
}

// SCD's DIFFERENTIATION: at each start (byte e of fw[c]), d[c][e] = the in-warp value of the
// segmented scan just before it (the sum of the segment that ends there, as far as the warp
// sees). Byte e of fb[c] = F[c][e] (the start's rank in its row, from flag_scan) plus 0x40
// when the sum still needs the earlier warps' and tiles' prefix (the warp's first start).
// A and lc as carry_lanes<false> leaves them.
template <class T>
__device__ __forceinline__ void differentiate(const std::uint32_t (&fw)[4], const std::uint32_t (&F)[4][4],
                                              const T (&A)[4][4], const T (&lc)[4], std::uint32_t fs,
                                              T (&d)[4][4], std::uint32_t (&fb)[4]) {
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    fb[c] = 0;
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const int ep = e > 0 ? e - 1 : 0;
      d[c][e] = e == 0 ? lc[c] : open(fw[c], ep) ? A[c][ep] + lc[c] : A[c][ep];
      if ((fw[c] >> (8 * e)) & 1u)
        fb[c] |= (F[c][e] | (warp_offset(lane, c, e) == fs ? 0x40u : 0u)) << (8 * e);
    }
  }
}

}  // namespace mmv::gpu::warp
