// Agent layer: the unit of the in-tile scans (ablation.hpp's V0-V3) as a policy type, so a
// variant is a template argument of the agents and the dispatch picks it. Every policy names
// its warp::unit (the row scans, row carries, warp totals and flag scans of warp blocks without
// starts, and of MatMulScan) and scans a warp block that holds a start for SSCR (REVERTed scan
// and the warp's span) and for SCD (the DIFFERENTIATION parked for the sweep, the starts' ranks);
// scd_runs marks V0, whose SCD runs agent/scd_runs (warp/scd_lanes) instead.
#pragma once
#include <cstdint>
#include <type_traits>

#include "mmvram/gpu/warp/revert.cuh"
#include "mmvram/gpu/warp/revert_rows.cuh"
#include "mmvram/gpu/warp/revert_warp.cuh"
#include "mmvram/gpu/warp/row_carry.cuh"
#include "mmvram/gpu/warp/row_scan.cuh"
#include "mmvram/gpu/warp/row_totals_mma.cuh"

namespace mmv::gpu::agent {

// The B fragments of warp::make_value_frags<T> and warp::make_total_frags<T>.
template <class T>
using value_frags = std::conditional_t<std::is_same_v<T, float>, warp::scan_frags_bf16, warp::scan_frags_u8>;
template <class T>
using total_frags = std::conditional_t<std::is_same_v<T, float>, warp::total_frags_bf16, warp::total_frags_u8>;

// The B operands of one lane for every policy (each uses its own): in-lane 4-item scans,
// 16-item row scans, start ranks in rows, and V3's two-level products.
template <class T>
struct block_frags {
  value_frags<T> lanes;
  value_frags<T> rows;
  warp::scan_frags_bf16 flags;
  warp::warp_frags<T> block;
};
template <class T>
__device__ __forceinline__ block_frags<T> make_block_frags(int lane) {
  return {warp::make_value_frags<T>(lane, true), warp::make_value_frags<T>(lane), warp::make_frags_bf16(lane),
          warp::make_warp_frags<T>(lane)};
}

// V0 (U = cuda_cores) and V1 (tensor_cores): speculative in-lane scans on U, REVERT in the lanes
// (warp/revert), segmented carries between lanes and rows.
template <warp::unit U>
struct lane_unit {
  static constexpr warp::unit unit = U;
  static constexpr int slots_per_warp = 0;  // shared-memory slots per warp (V3's gather)
  static constexpr bool scd_runs = U == warp::unit::cuda_cores;  // SCD by agent/scd_runs

  // SSCR: A = the warp block's REVERTed scan before warp carries; fs = its first start; returns
  // the block's span.
  template <class T>
  static __device__ __forceinline__ warp::seg<T> sscr_block(const T (&v)[4][4], const std::uint32_t (&fw)[4],
                                                            const block_frags<T>& f, T*, T (&A)[4][4],
                                                            std::uint32_t& fs) {
    T lc[4];
    warp::revert_in_lanes<U>(v, f.lanes, fw, A);
    return warp::carry_lanes(fw, A, lc, fs);
  }

  // SCD (V1; V0 runs agent/scd_runs): d and fb = the values and rank bytes parked for the
  // sweep, ccarry = the starts before each chunk's rank origin (a start's index in the block is
  // ccarry[c] + its rank byte - 1), wc = the block's starts; returns its span. Ranks in rows by
  // the flag scan (warp/revert: differentiate).
  template <class T>
  static __device__ __forceinline__ warp::seg<T> scd_block(const T (&v)[4][4], const std::uint32_t (&fw)[4],
                                                           const block_frags<T>& f, T*, T (&d)[4][4],
                                                           std::uint32_t (&fb)[4], std::uint32_t (&ccarry)[4],
                                                           std::uint32_t& wc) {
    T A[4][4], lc[4];
    std::uint32_t F[4][4], nf[4], fs;
    warp::revert_in_lanes<U>(v, f.lanes, fw, A);
    warp::flag_scan_on<U>(fw, f.flags, F, nf);
    const warp::seg<T> ws = warp::carry_lanes<false>(fw, A, lc, fs);
    warp::differentiate(fw, F, A, lc, fs, d, fb);
    wc = warp::row_carry(nf, ccarry);
    return ws;
  }
};

// V2: 16-item row scans on the MMA everywhere, repaired at the row (warp/revert_rows).
struct row_unit {
  static constexpr warp::unit unit = warp::unit::tensor_core_rows;
  static constexpr int slots_per_warp = 0;
  static constexpr bool scd_runs = false;

  template <class T>
  static __device__ __forceinline__ warp::seg<T> sscr_block(const T (&v)[4][4], const std::uint32_t (&fw)[4],
                                                            const block_frags<T>& f, T*, T (&A)[4][4],
                                                            std::uint32_t& fs) {
    std::uint32_t open_row[4];
    warp::seg<T> row[4];
    T lc[4];
    warp::revert_rows<unit>(v, f.rows, fw, A, open_row, row);
    return warp::carry_rows(fw, open_row, row, A, lc, fs);
  }

  template <class T>
  static __device__ __forceinline__ warp::seg<T> scd_block(const T (&v)[4][4], const std::uint32_t (&fw)[4],
                                                           const block_frags<T>& f, T*, T (&d)[4][4],
                                                           std::uint32_t (&fb)[4], std::uint32_t (&ccarry)[4],
                                                           std::uint32_t& wc) {
    T A[4][4], lc[4];
    std::uint32_t F[4][4], nf[4], fs, open_row[4];
    warp::seg<T> row[4];
    warp::revert_rows<unit>(v, f.rows, fw, A, open_row, row);
    warp::flag_scan_on<unit>(fw, f.flags, F, nf);
    const warp::seg<T> ws = warp::carry_rows<false>(fw, open_row, row, A, lc, fs);
    warp::differentiate_rows(fw, F, A, open_row, lc, fs, d, fb);
    wc = warp::row_carry(nf, ccarry);
    return ws;
  }
};

// V3: the whole warp block and its start ranks scanned speculatively by two MMA levels, then
// REVERT (SSCR) or DIFFERENTIATION (SCD) by a gather through `slots` (warp/revert_warp); V0's
// path where an fp32 speculative value is not finite.
struct warp_unit {
  static constexpr warp::unit unit = warp::unit::tensor_core_warp;
  static constexpr int slots_per_warp = warp::kSlotsPerWarp;
  static constexpr bool scd_runs = false;

  template <class T>
  static __device__ __forceinline__ warp::seg<T> sscr_block(const T (&v)[4][4], const std::uint32_t (&fw)[4],
                                                            const block_frags<T>& f, T* slots, T (&A)[4][4],
                                                            std::uint32_t& fs) {
    warp::warp_speculation<T> w;
    if (warp::speculate_warp(v, fw, f.block, w)) {
      const warp::seg<T> ws = warp::revert_warp(w, fw, slots, A);
      fs = warp::first_start(fw);
      return ws;
    }
    return lane_unit<warp::unit::cuda_cores>::sscr_block(v, fw, f, slots, A, fs);
  }

  template <class T>
  static __device__ __forceinline__ warp::seg<T> scd_block(const T (&v)[4][4], const std::uint32_t (&fw)[4],
                                                           const block_frags<T>& f, T* slots, T (&d)[4][4],
                                                           std::uint32_t (&fb)[4], std::uint32_t (&ccarry)[4],
                                                           std::uint32_t& wc) {
    warp::warp_speculation<T> w;
    const bool ok = warp::speculate_warp(v, fw, f.block, w);
    wc = w.starts;
#pragma unroll
    for (int c = 0; c < 4; ++c) ccarry[c] = w.EF[c];
    if (ok) return warp::differentiate_warp(w, fw, slots, d, fb);
    T A[4][4], lc[4];
    std::uint32_t fs;
    warp::revert_in_lanes<warp::unit::cuda_cores>(v, f.lanes, fw, A);
    const warp::seg<T> ws = warp::carry_lanes<false>(fw, A, lc, fs);
    warp::differentiate(fw, w.F, A, lc, fs, d, fb);
    return ws;
  }
};

// The variants by name (ablation::variant): V0 is the API's default.
using v0_cuda_cores = lane_unit<warp::unit::cuda_cores>;
using v1_tensor_cores = lane_unit<warp::unit::tensor_cores>;
using v2_tensor_core_rows = row_unit;
using v3_tensor_core_warp = warp_unit;

}  // namespace mmv::gpu::agent
