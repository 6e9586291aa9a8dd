// Warp layer: MatMulScan's second level inside the warp, for V3 (ablation.hpp:
// tensor_core_warp). The warp block's 32 row totals (row 4g + c on lanes 4g..4g+3, replicated)
// are moved by shuffles into one MMA operand — rows 0..15 as matrix row g, rows 16..31 as row
// g + 8, the same in every lane group — and multiplied by L (L[k][j] = 1 iff k < j) and by J
// (all ones): row j of the product is the sum of the half's rows before row j, and J gives the
// half totals. Shuffles inside each lane group then hand every lane its rows' prefixes. With
// the row scans (row_scan.cuh) that makes the warp's speculative scan two products deep.
#pragma once
#include <cstdint>
#include <type_traits>

#include "mmvram/gpu/warp/row_carry.cuh"
#include "mmvram/gpu/warp/row_scan.cuh"

namespace mmv::gpu::warp {

// B operands of the second level: L's two 8-column halves; J is the row scans' constant.
struct total_frags_bf16 {
  std::uint32_t l[2][2];  // m16n8k16 B: rows 2q, 2q+1 (then 2q+8, 2q+9) of column 8t + g
};
struct total_frags_u8 {
  std::uint32_t l[2];  // byte i: L[4q + i][8t + g]
};

// This lane's fragments of L for the bf16 MMA (B rows 2q, 2q+1, 2q+8, 2q+9 of column 8t + g).
__device__ __forceinline__ total_frags_bf16 make_total_frags_bf16(int lane) {
  total_frags_bf16 f;
  bf16_b_frags(lane, [](int k, int j) { return k < j; }, f.l);
  return f;
}

// This lane's fragments of L for the uint8 MMA (B rows 4q..4q+3 of column 8t + g).
__device__ __forceinline__ total_frags_u8 make_total_frags_u8(int lane) {
  total_frags_u8 f;
  u8_b_frags(lane, [](int k, int j) { return k < j; }, f.l);
  return f;
}

// The fragments scan_row_totals takes for totals of type T (float: bf16; uint32: uint8).
template <class T>
__device__ __forceinline__ auto make_total_frags(int lane) {
  if constexpr (std::is_same_v<T, float>) return make_total_frags_bf16(lane);
  else return make_total_frags_u8(lane);
}

// The product's layout back to the rows: d[t][i] holds matrix row g (i < 2: rows 0..15) or g + 8
// (i >= 2: rows 16..31) at column 8t + 2q + (i & 1). E[c] = d's value for row 4g + c, found in
// lane 4g + ((4(g & 3) + c) & 7) / 2 of the same group (every group holds the same product);
// h0 = the first half's total, added to the second half.
template <class T>
__device__ __forceinline__ void rows_from_product(const T (&d)[2][4], T h0, T (&E)[4]) {
  const int lane = threadIdx.x & 31, g = lane >> 2;
  const bool t1 = g & 2, half1 = g & 4;
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    const int k = 4 * (g & 3) + c;
    const T lo = t1 ? d[1][c & 1] : d[0][c & 1], hi = t1 ? d[1][2 + (c & 1)] : d[0][2 + (c & 1)];
    const T got = __shfl_sync(~0u, half1 ? hi : lo, (lane & ~3) | ((k & 7) >> 1));
    E[c] = half1 ? h0 + got : got;
  }
}

// fp32: E[c] = sum of the warp's rows before row 4g + c, from the row totals tot; returns the
// warp total. Three bf16 parts per total (low first), fp32 accumulation. Totals that are not
// finite, or a product that is not, take row_carry on the CUDA cores instead.
__device__ __forceinline__ float scan_row_totals(const float (&tot)[4], const total_frags_bf16& f, float (&E)[4]) {
  const int lane = threadIdx.x & 31, q = lane & 3;
  const float mine_lo = q & 1 ? tot[2] : tot[0], mine_hi = q & 1 ? tot[3] : tot[1];
  constexpr int group_of[4] = {0, 4, 2, 6};  // a[k]: rows 2q, 2q+1 of half k & 1, columns + 8 (k >> 1)
  std::uint32_t p[4][3];
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const int src = 4 * (group_of[k] + (q >> 1)) + q;
    thread::split3_bf16x2(__shfl_sync(~0u, mine_lo, src), __shfl_sync(~0u, mine_hi, src), p[k]);
  }
  float d[2][4] = {}, dj[4] = {};
#pragma unroll
  for (int k = 2; k >= 0; --k) {
    const std::uint32_t a[4] = {p[0][k], p[1][k], p[2][k], p[3][k]};
    thread::mma_bf16(d[0], a, f.l[0][0], f.l[0][1]);
    thread::mma_bf16(d[1], a, f.l[1][0], f.l[1][1]);
    thread::mma_bf16(dj, a, scan_frags_bf16::j, scan_frags_bf16::j);
  }
  rows_from_product(d, dj[0], E);
  const float total = dj[0] + dj[2];
  if (__any_sync(~0u, !finite_f32(total) || !finite_f32(E[0]) || !finite_f32(E[1]) || !finite_f32(E[2]) ||
                          !finite_f32(E[3])))
    return row_carry(tot, E);
  return total;
}

// uint32 (int32 wrapping, or counts): the same with Planes byte planes of each total (4: any
// value, exact modulo 2^32; 1: totals below 256, e.g. start counts), one uint8 MMA per plane.
// Here a lane's A columns 4q..4q+3 are rows 4q..4q+3: one lane group's four totals.
template <int Planes = 4>
__device__ __forceinline__ std::uint32_t scan_row_totals(const std::uint32_t (&tot)[4], const total_frags_u8& f,
                                                         std::uint32_t (&E)[4]) {
  const int lane = threadIdx.x & 31, g = lane >> 2, q = lane & 3;
  std::uint32_t mine[4];
  if constexpr (Planes == 1) mine[0] = tot[0] | tot[1] << 8 | tot[2] << 16 | tot[3] << 24;
  else thread::byte_planes(tot, mine);
  std::uint32_t d[2][4] = {}, dj[4] = {};
#pragma unroll
  for (int p = 0; p < Planes; ++p) {
    const std::uint32_t a0 = __shfl_sync(~0u, mine[p], 4 * q + (g & 3));
    const std::uint32_t a1 = __shfl_sync(~0u, mine[p], 4 * (q + 4) + (g & 3));
    std::uint32_t r[3][4];
    thread::mma_u8(r[0], a0, a1, f.l[0]);
    thread::mma_u8(r[1], a0, a1, f.l[1]);
    thread::mma_u8(r[2], a0, a1, scan_frags_u8::j);
#pragma unroll
    for (int i = 0; i < 4; ++i) d[0][i] += r[0][i] << (8 * p), d[1][i] += r[1][i] << (8 * p), dj[i] += r[2][i] << (8 * p);
  }
  rows_from_product(d, dj[0], E);
  return dj[0] + dj[2];
}

// The row carries as the unit policy places them: V3 on the tensor cores, the others row_carry.
template <unit U, class T, class Frags>
__device__ __forceinline__ T row_carry_on(const T (&tot)[4], const Frags& f, T (&carry)[4]) {
  if constexpr (U == unit::tensor_core_warp) return scan_row_totals(tot, f, carry);
  else return row_carry(tot, carry);
}

}  // namespace mmv::gpu::warp
