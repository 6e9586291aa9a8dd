// Warp layer: SSCR's COMPRESS and REVERT inside a warp's rows, in shared memory. After the
// speculative row scans xs (unsegmented) and F (starts so far in the row), the k-th start of a
// row stores the row's scan just before it in slot k of the row's list W; every item then
// subtracts slot F (or, before the row's first start, adds the carry from earlier rows).
#pragma once
#include <cstdint>

#include "mmvram/gpu/warp/row_carry.cuh"

namespace mmv::gpu::warp {

inline constexpr int kSlots = 17;  // slots 1..16 per row (slot 0 unused), odd stride vs banks

// COMPRESS: for each start (byte e of fw[c]), wr[c * kSlots + F[c][e]] = xs[c][e] - v[c][e].
// wr points at row 4g of the warp's 32 × kSlots list.
template <class T>
__device__ __forceinline__ void compress(T* wr, const std::uint32_t (&fw)[4],
                                         const std::uint32_t (&F)[4][4], const T (&xs)[4][4],
                                         const T (&v)[4][4]) {
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    if (!__any_sync(~0u, fw[c])) continue;  // warp-uniform skip of rows without starts
#pragma unroll
    for (int e = 0; e < 4; ++e)
      if ((fw[c] >> (8 * e)) & 1u) wr[c * kSlots + F[c][e]] = xs[c][e] - v[c][e];
  }
}

// Each row as a span of the segmented operator: f = it holds a start, v = its last segment's
// sum (row total minus the scan before its last start) or the row total. After __syncwarp.
template <class T>
__device__ __forceinline__ void row_spans(const T* wr, const std::uint32_t (&nf)[4],
                                          const T (&tot)[4], seg<T> (&row)[4]) {
#pragma unroll
  for (int c = 0; c < 4; ++c) row[c] = {nf[c] ? 1u : 0u, nf[c] ? tot[c] - wr[c * kSlots + nf[c]] : tot[c]};
}

// REVERT, first half: items after their row's first start subtract the row's scan before the
// start (slot F); items before it (F = 0) wait for the carry (carry_in_warp, add_prefix).
// nf[c]: starts in row c (skipped when no row c of the warp has any).
template <class T>
__device__ __forceinline__ void revert(const T* wr, const std::uint32_t (&nf)[4], const std::uint32_t (&F)[4][4],
                                       T (&xs)[4][4]) {
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    if (!__any_sync(~0u, nf[c])) continue;
#pragma unroll
    for (int e = 0; e < 4; ++e)
      if (F[c][e]) xs[c][e] -= wr[c * kSlots + F[c][e]];
  }
}

// REVERT, second half, as far as the warp sees: items before their row's first start (F = 0;
// all items when no row c of the warp has a start) add the warp-local carry cv[c] (from row_carry). Byte e of
// fb[c] records what is left: F for items after a start, 0x80 if the item's segment began
// inside the warp, 0 if it still needs the prefix of the earlier warps and tiles (add_prefix).
template <class T>
__device__ __forceinline__ void carry_in_warp(const std::uint32_t (&nf)[4], const std::uint32_t (&F)[4][4],
                                              const seg<T> (&cv)[4], T (&xs)[4][4], std::uint32_t (&fb)[4]) {
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    if (!__any_sync(~0u, nf[c])) {  // no start in these rows: every item takes the carry
      fb[c] = cv[c].f ? 0x80808080u : 0u;
#pragma unroll
      for (int e = 0; e < 4; ++e) xs[c][e] += cv[c].v;
      continue;
    }
    fb[c] = 0;
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      if (!F[c][e]) xs[c][e] += cv[c].v;
      fb[c] |= (F[c][e] ? F[c][e] : cv[c].f ? 0x80u : 0u) << (8 * e);
    }
  }
}

// REVERT, last step: items whose byte in fb (from carry_in_warp) is 0 add pre.
template <class T>
__device__ __forceinline__ void add_prefix(const std::uint32_t (&fb)[4], T pre, T (&xs)[4][4]) {
#pragma unroll
  for (int c = 0; c < 4; ++c)
#pragma unroll
    for (int e = 0; e < 4; ++e)
      if (!((fb[c] >> (8 * e)) & 0xffu)) xs[c][e] += pre;
}

// SCD's DIFF: at each start (byte e of fw[c]), xs[c][e] = the sum of the segment ending just
// before it, as far as the warp sees (adjacent list slots, or slot 1 plus the warp-local carry
// cv[c] for a row's first start). Byte e of fb[c] = F for a start (0x40 added when the sum
// still needs the prefix of the earlier warps and tiles), 0 elsewhere. After __syncwarp.
template <class T>
__device__ __forceinline__ void differentiate(const T* wr, const std::uint32_t (&fw)[4],
                                              const std::uint32_t (&F)[4][4], const seg<T> (&cv)[4],
                                              T (&xs)[4][4], std::uint32_t (&fb)[4]) {
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    fb[c] = 0;
    if (!__any_sync(~0u, fw[c])) continue;
    const T* w = wr + c * kSlots;
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      if (!((fw[c] >> (8 * e)) & 1u)) continue;
      const std::uint32_t f = F[c][e];
      xs[c][e] = f > 1 ? w[f] - w[f - 1] : w[1] + cv[c].v;
      fb[c] |= (f | (f == 1 && !cv[c].f ? 0x40u : 0u)) << (8 * e);
    }
  }
}

}  // namespace mmv::gpu::warp
