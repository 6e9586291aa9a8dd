// The comparisons that decide the fused kernels' PASS/FAIL (`mmvram kernels` check, bench,
// stress, accuracy), against the harness's one reference (reference.hpp: running_sum and
// walk_segments, walked in parallel chunks over raw arrays of any size, without copies). Float
// results are compared with the float64 reference (the exact sum, carried as an exact_sum and
// rounded once) per segment under the kernels' fp32 rule (tolerance.hpp: f32_bound,
// kRevertCoefficient); int32 results must match exactly (wrap-around semantics). Derivation:
// docs/gpu_v3_error.md.
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "mmvram/harness/random_inputs.hpp"
#include "mmvram/harness/tolerance.hpp"

namespace mmv::kernel_reference {

using inputs::dtype;

struct verdict {
  bool pass = true;
  double max_error = 0;    // f32: largest per-segment relative error; i32: 0 or 1 (any mismatch)
  double worst_ratio = 0;  // f32: largest error / bound over segments and single items (pass needs <= 1)
  std::int64_t bad = 0;    // failing segments and single items (f32); mismatching elements or segments (i32)
  std::int64_t first_bad = -1;  // first failing element index (segment start for f32 scans)
  std::int64_t num_segments = 0;
  std::string detail;      // why it failed, first reason
  bool layout_error = false;  // offsets or the segment count wrong: never a matter of accuracy
  // f32 accuracy, against the float64 reference. A result's own scale is the sum of |x| over its
  // segment up to it (the whole segment for sums): what any summation order's error scales with.
  double max_scaled_error = 0;  // largest |out - ref| / own scale
  double max_single_error = 0;  // largest |out - x| / |x| over single-item results (exact in any order)
  std::int64_t single_results = 0, single_bad = 0;  // single-item results, and those beyond f32_bound(1)
  // Speculation blocks only (V3): largest single-item error over its derived bound
  // kRevertCoefficient * (H + |x|); above 1 the derivation's assumptions fail on this device.
  double single_over_derived = 0;
  std::array<std::int64_t, kBitsLostBins> bits_lost{};  // results by log2(|out - ref| / (2^-24 own scale))
};

// Segmented inclusive scan: out against the reference of x with starts at flags (flags ==
// nullptr: one segment). f32: a single-item result (a segment's start) within f32_bound(1) of x;
// every other result's error, less kRevertCoefficient * H (speculation_block > 0), enters its
// segment's ||err||_2 / ||ref||_2 <= f32_bound(len). The speculation blocks start where
// i + block_phase is a multiple of speculation_block (the kernel's tile grid shift, tile_shift).
verdict verify_segmented_scan(dtype t, const void* x, const std::uint8_t* flags, const void* out,
                              std::int64_t n, std::int64_t speculation_block = 0, std::int64_t block_phase = 0);
// Segmented sum: sums[k] per segment (f32: |out - ref| - kRevertCoefficient * H (when
// speculation_block > 0 and the segment has two items or more) <= f32_bound(len) * sum |x|), and,
// when offsets != nullptr, offsets[k] == segment start, offsets[count] == n, and count right.
verdict verify_segmented_sum(dtype t, const void* x, const std::uint8_t* flags, const void* sums,
                             const std::int64_t* offsets, std::int64_t reported_segments,
                             std::int64_t n, std::int64_t speculation_block = 0, std::int64_t block_phase = 0);
// Reduction: sum[0] against the reference sum of x (f32: |out - ref| <= f32_bound(n) * sum |x|;
// i32: exact, wrapping).
verdict verify_reduce(dtype t, const void* x, const void* sum, std::int64_t n);
// Exact copy.
verdict verify_copy(const void* x, const void* out, std::int64_t bytes);
// State passing: n fp32 states got[i * stride] against the float64 reference want[i]
// (inputs::state_passing_lane), each within kStatePassingTolerance * (scale[i] + 1e-30), scale
// the recurrence on |u| (its bound, or unsegmented for the speculative repair); NaN fails.
// max_error: largest |got - want|; bad, first_bad, detail: the failures, the first named.
verdict verify_state_passing(const float* got, std::int64_t stride, const double* want, const double* scale,
                             std::int64_t n);

}  // namespace mmv::kernel_reference
