// Warp layer: carries between the warp's 32 rows (row 4g + c on lanes 4g..4g+3, layout.cuh),
// plain and segmented, on CUDA cores: 4 rows in registers, then 8 row groups by shuffles.
// T is float or std::uint32_t (int32 data, wrapping); every lane of a row group sees the same.
#pragma once
#include <cstdint>

namespace mmv::gpu::warp {

// A span of items under the segmented operator: f = a segment starts inside the span,
// v = the value of the segment open at the span's end (its sum from its start, or the span sum).
template <class T>
struct seg {
  std::uint32_t f;
  T v;
};

// The segmented operator: a followed by b.
template <class T>
__device__ __forceinline__ seg<T> combine(seg<T> a, seg<T> b) {
  return {a.f | b.f, b.f ? b.v : a.v + b.v};
}

template <class T>
__device__ __forceinline__ seg<T> shfl_up(seg<T> x, int d) {
  return {__shfl_up_sync(~0u, x.f, d), __shfl_up_sync(~0u, x.v, d)};
}

// carry[c] = sum of the warp's rows before row 4g + c, given the row totals tot[c];
// returns the warp total.
template <class T>
__device__ __forceinline__ T row_carry(const T (&tot)[4], T (&carry)[4]) {
  const int lane = threadIdx.x & 31;
  T incl = T(0);
#pragma unroll
  for (int c = 0; c < 4; ++c) carry[c] = incl, incl += tot[c];
#pragma unroll
  for (int d = 4; d < 32; d *= 2) {
    const T y = __shfl_up_sync(~0u, incl, d);
    if (lane >= d) incl += y;
  }
  T excl = __shfl_up_sync(~0u, incl, 4);
  if (lane < 4) excl = T(0);
#pragma unroll
  for (int c = 0; c < 4; ++c) carry[c] = excl + carry[c];
  return __shfl_sync(~0u, incl, 31);
}

// Segmented under the operator op (a span's join, associative, identity {0, 0}): carry[c] = the
// warp's rows before row 4g + c (f = 0 and v = 0 for the first row), given each row's span
// row[c]; returns the whole warp's span.
template <class T, class Op>
__device__ __forceinline__ seg<T> row_carry_by(Op op, const seg<T> (&row)[4], seg<T> (&carry)[4]) {
  const int lane = threadIdx.x & 31;
  seg<T> incl{0u, T(0)};
#pragma unroll
  for (int c = 0; c < 4; ++c) carry[c] = incl, incl = op(incl, row[c]);
#pragma unroll
  for (int d = 4; d < 32; d *= 2) {
    const seg<T> y = shfl_up(incl, d);
    if (lane >= d) incl = op(y, incl);
  }
  seg<T> excl = shfl_up(incl, 4);
  if (lane < 4) excl = {0u, T(0)};
#pragma unroll
  for (int c = 0; c < 4; ++c) carry[c] = op(excl, carry[c]);
  return {__shfl_sync(~0u, incl.f, 31), __shfl_sync(~0u, incl.v, 31)};
}

// Segmented under combine: row_carry_by with the (flag, value) operator.
template <class T>
__device__ __forceinline__ seg<T> row_carry(const seg<T> (&row)[4], seg<T> (&carry)[4]) {
  return row_carry_by([](seg<T> a, seg<T> b) { return combine(a, b); }, row, carry);
}

}  // namespace mmv::gpu::warp
