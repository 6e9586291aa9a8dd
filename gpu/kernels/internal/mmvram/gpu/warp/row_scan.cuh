// Warp layer: scans of the warp's 32×16 block on the tensor cores (layout in layout.cuh). Each
// 16×16 m-tile is multiplied by U' (prefix matrix: row_scan, row-local scans) or by U' cut into
// 4×4 diagonal blocks (lane_scan, in-lane scans for the segmented kernels) and by J (the row
// totals). Every scan also has a CUDA-core twin (…_cuda_cores: running sums and quad shuffles,
// row_scan_cuda_cores.cuh), used for non-finite fp32 data and, through the unit policy
// (…_on<U>), by the kernels' V0 variant that never touches the tensor cores. Carries between
// rows and lanes live in row_carry.cuh (V3: row_totals_mma.cuh) and revert.cuh.
#pragma once
#include <cstdint>
#include <type_traits>

#include "mmvram/gpu/thread/mma.cuh"
#include "mmvram/gpu/thread/split.cuh"
#include "mmvram/gpu/warp/layout.cuh"
#include "mmvram/gpu/warp/row_scan_cuda_cores.cuh"

namespace mmv::gpu::warp {

// Non-finite values. The products below are exact for finite data, but an inf or NaN item
// poisons them: 0 × inf = NaN reaches every item of its MMA row, and an inf's bf16 split leaves
// inf − inf = NaN in the lower parts. Each fp32 scan therefore checks its totals (an inf or NaN
// item always makes one non-finite; so may an overflow) and, if any lane sees one, the warp redoes
// that scan on the CUDA cores with plain additions, giving each result the class (finite, ±inf,
// NaN) a sequential fp32 sum gives for inf and NaN inputs (an overflow of a partial sum only,
// with a finite total, is not caught: its class depends on the order of summation).
__device__ __forceinline__ bool finite_f32(float x) { return fabsf(x) <= 3.40282347e38f; }  // NaN: false

// Which unit runs the in-tile scans: the kernels' policy, and the ablation's only variable
// (ablation.hpp's variants). The tensor-core units differ only in how far up the warp block
// the products go (revert_rows.cuh: row scans repaired at the row; row_totals_mma.cuh and
// revert_warp.cuh: the row totals too); the scans here treat them alike.
enum class unit { tensor_cores, cuda_cores, tensor_core_rows, tensor_core_warp };

// The B fragments row_scan takes for values of type T (float: bf16 parts; uint32: byte planes).
template <class T>
__device__ __forceinline__ auto make_value_frags(int lane, bool lane_blocks = false) {
  if constexpr (std::is_same_v<T, float>) {
    return make_frags_bf16(lane, lane_blocks);
  } else {
    return make_frags_u8(lane, lane_blocks);
  }
}

// fp32: xs[c][e] = sum of the row's items up to item 4q+e, tot[c] = the row total, computed as
// (lo + mid + hi)·[U' | J] over the three bf16 parts, accumulated in fp32 (lo first).
__device__ __forceinline__ void row_scan(const float (&v)[4][4], const scan_frags_bf16& b,
                                         float (&xs)[4][4], float (&tot)[4]) {
#pragma unroll
  for (int m = 0; m < 2; ++m) {
    const int c0 = 2 * m, c1 = 2 * m + 1;
    std::uint32_t p[4][3];
    thread::split3_bf16x2(v[c0][0], v[c0][1], p[0]);
    thread::split3_bf16x2(v[c1][0], v[c1][1], p[1]);
    thread::split3_bf16x2(v[c0][2], v[c0][3], p[2]);
    thread::split3_bf16x2(v[c1][2], v[c1][3], p[3]);
    float d[3][4] = {};
#pragma unroll
    for (int k = 2; k >= 0; --k) {
      const std::uint32_t a[4] = {p[0][k], p[1][k], p[2][k], p[3][k]};
      thread::mma_bf16(d[0], a, b.u[0][0], b.u[0][1]);
      thread::mma_bf16(d[1], a, b.u[1][0], b.u[1][1]);
      thread::mma_bf16(d[2], a, b.j, b.j);
    }
    xs[c0][0] = d[0][0], xs[c0][1] = d[0][1], xs[c0][2] = d[1][0], xs[c0][3] = d[1][1];
    xs[c1][0] = d[0][2], xs[c1][1] = d[0][3], xs[c1][2] = d[1][2], xs[c1][3] = d[1][3];
    tot[c0] = d[2][0], tot[c1] = d[2][2];
  }
  if (__any_sync(~0u, !finite_f32(tot[0] + tot[1] + tot[2] + tot[3]))) row_scan_cuda_cores(v, xs, tot);
}

// int32 (as uint32, wrapping): the same scans with each value split into four byte planes,
// one uint8 MMA per plane (exact int32 sums of bytes), recombined by shifts modulo 2^32.
// The uint8 A operand wants columns 4q..4q+3, i.e. items {0,1,4,5}, {8,9,12,13}, {2,3,6,7},
// {10,11,14,15} of the row for q = 0..3: two shuffle rounds move those item pairs first.
template <bool Totals = true>
__device__ __forceinline__ void row_scan(const std::uint32_t (&v)[4][4], const scan_frags_u8& b,
                                         std::uint32_t (&xs)[4][4], std::uint32_t (&tot)[4]) {
  const int lane = threadIdx.x & 31, q = lane & 3, base = lane & ~3;
  const int src1 = base | (2 * (q & 1) + (q >> 1)), src2 = base | (2 * (q & 1) + 1 - (q >> 1));
  const bool odd = lane & 1;
  std::uint32_t planes[4][4];
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    const std::uint32_t r0 = __shfl_sync(~0u, odd ? v[c][2] : v[c][0], src1);
    const std::uint32_t r1 = __shfl_sync(~0u, odd ? v[c][3] : v[c][1], src1);
    const std::uint32_t s0 = __shfl_sync(~0u, odd ? v[c][0] : v[c][2], src2);
    const std::uint32_t s1 = __shfl_sync(~0u, odd ? v[c][1] : v[c][3], src2);
    const bool swap = q >= 2;
    const std::uint32_t w[4] = {swap ? s0 : r0, swap ? s1 : r1, swap ? r0 : s0, swap ? r1 : s1};
    thread::byte_planes(w, planes[c]);
  }
#pragma unroll
  for (int m = 0; m < 2; ++m) {
    const int c0 = 2 * m, c1 = 2 * m + 1;
    std::uint32_t r[3][4] = {};
#pragma unroll
    for (int t = 0; t < (Totals ? 3 : 2); ++t) {
      const std::uint32_t bt = t < 2 ? b.u[t] : b.j;
#pragma unroll
      for (int p = 0; p < 4; ++p) {
        std::uint32_t d[4];
        thread::mma_u8(d, planes[c0][p], planes[c1][p], bt);
#pragma unroll
        for (int i = 0; i < 4; ++i) r[t][i] += d[i] << (8 * p);
      }
    }
    xs[c0][0] = r[0][0], xs[c0][1] = r[0][1], xs[c0][2] = r[1][0], xs[c0][3] = r[1][1];
    xs[c1][0] = r[0][2], xs[c1][1] = r[0][3], xs[c1][2] = r[1][2], xs[c1][3] = r[1][3];
    if constexpr (Totals) tot[c0] = r[2][0], tot[c1] = r[2][2];
  }
}

// Speculative (unsegmented) in-lane scans for m-tile M (chunks 2M and 2M + 1), with the B
// fragments of make_value_frags(lane, lane_blocks = true): S[h][e] = x[4q] + ... + x[4q+e] of
// chunk 2M + h. fp32: the three bf16 parts (low first) accumulate in fp32 as in row_scan.
template <int M>
__device__ __forceinline__ void lane_scan(const float (&v)[4][4], const scan_frags_bf16& b, float (&S)[2][4]) {
  constexpr int c0 = 2 * M, c1 = 2 * M + 1;
  std::uint32_t p[4][3];
  thread::split3_bf16x2(v[c0][0], v[c0][1], p[0]);
  thread::split3_bf16x2(v[c1][0], v[c1][1], p[1]);
  thread::split3_bf16x2(v[c0][2], v[c0][3], p[2]);
  thread::split3_bf16x2(v[c1][2], v[c1][3], p[3]);
  float d0[4] = {}, d1[4] = {};
#pragma unroll
  for (int k = 2; k >= 0; --k) {
    const std::uint32_t a[4] = {p[0][k], p[1][k], p[2][k], p[3][k]};
    thread::mma_bf16(d0, a, b.u[0][0], b.u[0][1]);
    thread::mma_bf16(d1, a, b.u[1][0], b.u[1][1]);
  }
  S[0][0] = d0[0], S[0][1] = d0[1], S[0][2] = d1[0], S[0][3] = d1[1];
  S[1][0] = d0[2], S[1][1] = d0[3], S[1][2] = d1[2], S[1][3] = d1[3];
  if (__any_sync(~0u, !finite_f32(S[0][3] + S[1][3]))) lane_scan_cuda_cores<M>(v, S);  // inf / NaN in the m-tile
}
// int32: the byte-plane scans of row_scan (exact mod 2^32) without the row totals. The byte
// shuffles need all four chunks, so M = 0 scans the whole warp block into xs and M = 1 only
// hands out the second half.
template <int M>
__device__ __forceinline__ void lane_scan(const std::uint32_t (&v)[4][4], const scan_frags_u8& b,
                                          std::uint32_t (&S)[2][4], std::uint32_t (&xs)[4][4]) {
  if constexpr (M == 0) {
    std::uint32_t unused[4];
    row_scan<false>(v, b, xs, unused);
  }
#pragma unroll
  for (int h = 0; h < 2; ++h)
#pragma unroll
    for (int e = 0; e < 4; ++e) S[h][e] = xs[2 * M + h][e];
}

// The warp block's total on the tensor cores (the fast path of a warp block with no segment
// start): every item's parts times J (all ones) accumulate into one fragment across both m-tiles
// (fp32: low parts first; int32: one uint8 product per byte plane), so d[0] + d[2] is the sum of
// the lane group's four rows; three shuffles add the eight groups. Every lane returns the total.
__device__ __forceinline__ float warp_total(const float (&v)[4][4]) {
  std::uint32_t p[2][4][3];
#pragma unroll
  for (int m = 0; m < 2; ++m) {
    thread::split3_bf16x2(v[2 * m][0], v[2 * m][1], p[m][0]);
    thread::split3_bf16x2(v[2 * m + 1][0], v[2 * m + 1][1], p[m][1]);
    thread::split3_bf16x2(v[2 * m][2], v[2 * m][3], p[m][2]);
    thread::split3_bf16x2(v[2 * m + 1][2], v[2 * m + 1][3], p[m][3]);
  }
  float d[4] = {};
#pragma unroll
  for (int k = 2; k >= 0; --k)
#pragma unroll
    for (int m = 0; m < 2; ++m) {
      const std::uint32_t a[4] = {p[m][0][k], p[m][1][k], p[m][2][k], p[m][3][k]};
      thread::mma_bf16(d, a, scan_frags_bf16::j, scan_frags_bf16::j);
    }
  float x = d[0] + d[2];
#pragma unroll
  for (int o = 4; o < 32; o *= 2) x += __shfl_xor_sync(~0u, x, o);
  if (__any_sync(~0u, !finite_f32(x))) x = warp_total_cuda_cores(v);  // inf / NaN in the block
  return x;
}
// int32 (wrapping): a row's total needs no column order, so a lane's own bytes are its A columns.
__device__ __forceinline__ std::uint32_t warp_total(const std::uint32_t (&v)[4][4]) {
  std::uint32_t x = 0;
#pragma unroll
  for (int m = 0; m < 2; ++m) {
    std::uint32_t p0[4], p1[4];
    thread::byte_planes(v[2 * m], p0);
    thread::byte_planes(v[2 * m + 1], p1);
#pragma unroll
    for (int b = 0; b < 4; ++b) {
      std::uint32_t d[4];
      thread::mma_u8(d, p0[b], p1[b], scan_frags_u8::j);
      x += (d[0] + d[2]) << (8 * b);
    }
  }
#pragma unroll
  for (int o = 4; o < 32; o *= 2) x += __shfl_xor_sync(~0u, x, o);
  return x;
}

// Flags (normalized 0/1 bytes fw[c], byte e = item 4q+e): F[c][e] = number of segment starts in
// the row up to item 4q+e, nf[c] = starts in the row. bf16 0/1 and counts <= 16 are exact.
__device__ __forceinline__ void flag_scan(const std::uint32_t (&fw)[4], const scan_frags_bf16& b,
                                          std::uint32_t (&F)[4][4], std::uint32_t (&nf)[4]) {
#pragma unroll
  for (int m = 0; m < 2; ++m) {
    const int c0 = 2 * m, c1 = 2 * m + 1;
    const std::uint32_t a[4] = {thread::flags_bf16x2(fw[c0], 0), thread::flags_bf16x2(fw[c1], 0),
                                thread::flags_bf16x2(fw[c0], 1), thread::flags_bf16x2(fw[c1], 1)};
    float d[3][4] = {};
    thread::mma_bf16(d[0], a, b.u[0][0], b.u[0][1]);
    thread::mma_bf16(d[1], a, b.u[1][0], b.u[1][1]);
    thread::mma_bf16(d[2], a, b.j, b.j);
    const float* o[2] = {d[0], d[1]};
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      F[c0][e] = thread::exact_count(o[e >> 1][e & 1]);
      F[c1][e] = thread::exact_count(o[e >> 1][2 + (e & 1)]);
    }
    nf[c0] = thread::exact_count(d[2][0]);
    nf[c1] = thread::exact_count(d[2][2]);
  }
}

// The scans as the unit policy U places them (the kernels call only these).
template <unit U, class T, class Frags>
__device__ __forceinline__ void row_scan_on(const T (&v)[4][4], const Frags& b, T (&xs)[4][4], T (&tot)[4]) {
  if constexpr (U != unit::cuda_cores) row_scan(v, b, xs, tot);
  else row_scan_cuda_cores(v, xs, tot);
}
template <unit U, class T>
__device__ __forceinline__ T warp_total_on(const T (&v)[4][4]) {
  if constexpr (U != unit::cuda_cores) return warp_total(v);
  else return warp_total_cuda_cores(v);
}
template <unit U>
__device__ __forceinline__ void flag_scan_on(const std::uint32_t (&fw)[4], const scan_frags_bf16& b,
                                             std::uint32_t (&F)[4][4], std::uint32_t (&nf)[4]) {
  if constexpr (U != unit::cuda_cores) flag_scan(fw, b, F, nf);
  else flag_scan_cuda_cores(fw, F, nf);
}

}  // namespace mmv::gpu::warp
