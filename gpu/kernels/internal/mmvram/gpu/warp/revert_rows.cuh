// Warp layer: the V2 variant of SSCR's speculation (ablation.hpp: tensor_core_rows). Each 16-item
// row is scanned speculatively (unsegmented) on the tensor cores, as MatMulScan does, and
// repaired at the row, the block of 16 (REVSPEC's idea one level up from revert.cuh's lanes):
// int32 subtracts the speculative scan just before the item's last start (the paper's REVERT,
// exact modulo 2^32); float recomputes the items from a start on with plain additions instead,
// since the subtraction would cancel (its error grows with the magnitude before the start).
// Rows are then joined with the segmented operator (row_carry), as in MatMulScan.
#pragma once
#include <cstdint>
#include <type_traits>

#include "mmvram/gpu/warp/revert.cuh"

namespace mmv::gpu::warp {

// R1: A[c][e] = the in-row segmented scan of item 4q + e of row 4g + c: final (within the warp)
// where a start precedes it in the row; its row prefix (speculation) where none does, with bit e
// of open_row[c] set, waiting for the rows before. row[c]: the row's span (row_carry's input).
template <unit U, class T, class Frags>
__device__ __forceinline__ void revert_rows(const T (&v)[4][4], const Frags& row_frags, const std::uint32_t (&fw)[4],
                                            T (&A)[4][4], std::uint32_t (&open_row)[4], seg<T> (&row)[4]) {
  const int lane = threadIdx.x & 31, q = lane & 3;
  T S[4][4], tot[4];
  row_scan_on<U>(v, row_frags, S, tot);
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    T own[4];  // from the lane's last start on: its segmented value; before it: float, the lane prefix
    T out;     // what the lane passes on: float, its span's value; int32, the base of its last start
    if constexpr (std::is_same_v<T, float>) {
      T s = T(0);
#pragma unroll
      for (int e = 0; e < 4; ++e) own[e] = s = is_start(fw[c], e) ? v[c][e] : s + v[c][e];
      out = own[3];
    } else {
      const T before = __shfl_up_sync(~0u, S[c][3], 1);  // speculative scan of item 4q - 1
      T base = T(0);
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        if (is_start(fw[c], e)) base = e > 0 ? S[c][e - 1] : q > 0 ? before : T(0);
        own[e] = S[c][e] - base;
      }
      out = fw[c] ? base : T(0);  // with v = 0 a start-free lane passes its predecessor's base on
    }
    seg<T> in{fw[c] ? 1u : 0u, out};
#pragma unroll
    for (int d = 1; d < 4; d *= 2) {
      const seg<T> y = shfl_up(in, d);
      if (q >= d) in = combine(y, in);
    }
    seg<T> ex = shfl_up(in, 1);
    if (q == 0) ex = {0u, T(0)};
    open_row[c] = 0;
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      if (!open(fw[c], e)) {
        A[c][e] = own[e];
      } else if (ex.f) {  // a start in an earlier lane of the row
        if constexpr (std::is_same_v<T, float>) A[c][e] = ex.v + own[e];
        else A[c][e] = S[c][e] - ex.v;
      } else {
        A[c][e] = S[c][e];
        open_row[c] |= 1u << e;
      }
    }
    row[c] = {__shfl_sync(~0u, in.f, lane | 3), __shfl_sync(~0u, A[c][3], lane | 3)};
  }
}

// R2: joins the rows (row_carry); rc[c] = the value the warp's rows before row 4g + c carry in.
// Items = true adds it to the open items (SSCR); SCD's differentiate_rows adds it where needed.
// fs and the returned span as carry_lanes.
template <bool Items = true, class T>
__device__ __forceinline__ seg<T> carry_rows(const std::uint32_t (&fw)[4], const std::uint32_t (&open_row)[4],
                                             const seg<T> (&row)[4], T (&A)[4][4], T (&rc)[4], std::uint32_t& fs) {
  seg<T> carry[4];
  const seg<T> ws = row_carry(row, carry);
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    rc[c] = carry[c].v;
    if constexpr (Items) {
#pragma unroll
      for (int e = 0; e < 4; ++e)
        if ((open_row[c] >> e) & 1u) A[c][e] += rc[c];
    }
  }
  fs = first_start(fw);
  return ws;
}

// SCD's DIFFERENTIATION for V2: d and fb as differentiate (revert.cuh) gives them, from the
// state carry_rows<false> leaves (the item before a lane's item 0 is the previous lane's item 3).
template <class T>
__device__ __forceinline__ void differentiate_rows(const std::uint32_t (&fw)[4], const std::uint32_t (&F)[4][4],
                                                   const T (&A)[4][4], const std::uint32_t (&open_row)[4],
                                                   const T (&rc)[4], std::uint32_t fs, T (&d)[4][4],
                                                   std::uint32_t (&fb)[4]) {
  const int lane = threadIdx.x & 31, q = lane & 3;
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    const T last = (open_row[c] >> 3) & 1u ? A[c][3] + rc[c] : A[c][3];
    const T before_lane = __shfl_up_sync(~0u, last, 1);
    fb[c] = 0;
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      if (e == 0) d[c][e] = q > 0 ? before_lane : rc[c];
      else d[c][e] = (open_row[c] >> (e - 1)) & 1u ? A[c][e - 1] + rc[c] : A[c][e - 1];
      if (is_start(fw[c], e)) fb[c] |= (F[c][e] | (warp_offset(lane, c, e) == fs ? 0x40u : 0u)) << (8 * e);
    }
  }
}

}  // namespace mmv::gpu::warp
