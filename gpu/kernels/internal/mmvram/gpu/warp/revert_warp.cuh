// Warp layer: V3 (ablation.hpp: tensor_core_warp), SSCR as the paper writes it, on one warp
// block of 512 items. The speculative (unsegmented) scan of the whole block is two tensor-core
// products deep (16-item row scans, row_scan.cuh; then the 32 row totals, row_totals_mma.cuh),
// and so are the starts' ranks (flag_scan, then the rows' start counts). REVERT is a gather
// through shared memory: each start parks the speculative scan just before it at its rank, and
// each item subtracts what its last start parked. int32: exact modulo 2^32. fp32: the
// subtraction cancels, so an item's error is the speculative scan's, which scales with the sum
// of |x| over the warp block of its segment's start before the start (carried on to the
// segment's later blocks), not over its segment: the documented inaccuracy of V3, bounded in
// docs/gpu_v3_error.md (the MMA's fp32 accumulation truncates its addends).
#pragma once
#include <cstdint>
#include <type_traits>

#include "mmvram/gpu/warp/revert.cuh"
#include "mmvram/gpu/warp/row_totals_mma.cuh"

namespace mmv::gpu::warp {

inline constexpr int kSlotsPerWarp = kWarpItems;  // one slot per possible start

// The B operands V3 uses: row scans (U' | J), row totals (L), start counts in rows (bf16 U')
// and the rows' start counts (uint8 L); make_warp_frags builds this lane's share.
template <class T>
struct warp_frags {
  decltype(make_value_frags<T>(0)) rows;
  decltype(make_total_frags<T>(0)) totals;
  scan_frags_bf16 flags;
  total_frags_u8 counts;
};
template <class T>
__device__ __forceinline__ warp_frags<T> make_warp_frags(int lane) {
  return {make_value_frags<T>(lane), make_total_frags<T>(lane), make_frags_bf16(lane), make_total_frags_u8(lane)};
}

// The warp block's speculative scan: at item e of chunk c, E[c] + S[c][e]; just before it,
// E[c] + S[c][e - 1] (e > 0) or E[c] + rowpre[c] (rowpre: the row prefix of the lane before,
// 0 for q = 0). Starts up to the item: EF[c] + F[c][e]; starts = the block's count.
template <class T>
struct warp_speculation {
  T S[4][4], E[4], rowpre[4];
  std::uint32_t F[4][4], EF[4], starts;
  __device__ __forceinline__ T at(int c, int e) const { return E[c] + S[c][e]; }
  __device__ __forceinline__ T before(int c, int e) const { return E[c] + (e > 0 ? S[c][e - 1] : rowpre[c]); }
  __device__ __forceinline__ std::uint32_t rank(int c, int e) const { return EF[c] + F[c][e]; }
};

// Computes w on the tensor cores. fp32: false when a speculative value is not finite (an inf or
// NaN item, or a prefix of the block that overflows): the caller then takes the CUDA-core path.
template <class T>
__device__ __forceinline__ bool speculate_warp(const T (&v)[4][4], const std::uint32_t (&fw)[4],
                                               const warp_frags<T>& f, warp_speculation<T>& w) {
  T tot[4];
  std::uint32_t nf[4];
  row_scan(v, f.rows, w.S, tot);
  scan_row_totals(tot, f.totals, w.E);
  flag_scan(fw, f.flags, w.F, nf);
  w.starts = scan_row_totals<1>(nf, f.counts, w.EF);
  const int q = threadIdx.x & 3;
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    const T y = __shfl_up_sync(~0u, w.S[c][3], 1);
    w.rowpre[c] = q > 0 ? y : T(0);
  }
  if constexpr (std::is_same_v<T, float>) {
    float poison = 0.0f;  // 0 · x is NaN exactly when x is inf or NaN
#pragma unroll
    for (int c = 0; c < 4; ++c)
#pragma unroll
      for (int e = 0; e < 4; ++e) poison = fmaf(w.at(c, e), 0.0f, poison);
    return !__any_sync(~0u, poison != poison);
  }
  return true;
}

// Each start parks the speculative scan just before it at slot[rank - 1] (slot: this warp's
// kSlotsPerWarp entries of shared memory).
template <class T>
__device__ __forceinline__ void park_starts(const warp_speculation<T>& w, const std::uint32_t (&fw)[4], T* slot) {
  __syncwarp();  // the previous pass has read its slots
#pragma unroll
  for (int c = 0; c < 4; ++c)
#pragma unroll
    for (int e = 0; e < 4; ++e)
      if (is_start(fw[c], e)) slot[w.rank(c, e) - 1] = w.before(c, e);
  __syncwarp();
}

// REVERT: A[c][e] = the speculative scan minus what the item's last start parked: the warp's
// segmented scan, or (no start of the block before it) the speculative scan itself, to which
// the earlier warps' carry is added later. Returns the block's span.
template <class T>
__device__ __forceinline__ seg<T> revert_warp(const warp_speculation<T>& w, const std::uint32_t (&fw)[4], T* slot,
                                              T (&A)[4][4]) {
  park_starts(w, fw, slot);
#pragma unroll
  for (int c = 0; c < 4; ++c)
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const std::uint32_t k = w.rank(c, e);
      A[c][e] = k > 0 ? w.at(c, e) - slot[k - 1] : w.at(c, e);
    }
  return {w.starts > 0 ? 1u : 0u, __shfl_sync(~0u, A[3][3], 31)};
}

// SCD's DIFFERENTIATION for V3: at each start, d = the speculative scan just before it minus
// what the previous start parked (the sum of the segment ending there, as far as the block
// sees; the block's first start keeps the open prefix and sets 0x40 in fb, as differentiate
// does). Byte e of fb[c]: F[c][e], the start's rank in its row. Returns the block's span.
// Only for a block holding a start (w.starts >= 1).
template <class T>
__device__ __forceinline__ seg<T> differentiate_warp(const warp_speculation<T>& w, const std::uint32_t (&fw)[4],
                                                     T* slot, T (&d)[4][4], std::uint32_t (&fb)[4]) {
  park_starts(w, fw, slot);
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    fb[c] = 0;
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const std::uint32_t k = w.rank(c, e);
      d[c][e] = T(0);
      if (is_start(fw[c], e)) {
        d[c][e] = k > 1 ? w.before(c, e) - slot[k - 2] : w.before(c, e);
        fb[c] |= (w.F[c][e] | (k == 1 ? 0x40u : 0u)) << (8 * e);
      }
    }
  }
  return {1u, __shfl_sync(~0u, w.at(3, 3), 31) - slot[w.starts - 1]};
}

}  // namespace mmv::gpu::warp
