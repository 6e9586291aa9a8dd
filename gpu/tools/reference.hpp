// CPU references and the comparisons that decide PASS/FAIL. Float results are compared with a
// float64 reference per segment; int32 results must match exactly (wrap-around semantics).
#pragma once
#include <cstdint>
#include <string>

#include "inputs.hpp"

namespace mmv::gpu::harness {

struct verdict {
  bool pass = true;
  double max_error = 0;    // f32: largest per-segment relative error; i32: 0 or 1 (any mismatch)
  double worst_ratio = 0;  // f32: largest error / bound over segments (pass needs <= 1)
  std::int64_t bad = 0;    // f32: failing segments; i32: mismatching elements or segments
  std::int64_t first_bad = -1;  // first failing element index (segment start for f32 scans)
  std::int64_t num_segments = 0;
  std::string detail;      // why it failed, first reason
  double max_block_error = 0;  // f32, speculation block: largest |out - ref| / the allowance's sum |x|, in the start's block
};

// Bound on the f32 relative error of a segment of length len: 1e-6 up to 4096 items, growing as
// sqrt(len / 4096) beyond (fp32 rounding of a carry accumulated over len / 4096 tiles).
double f32_bound(std::int64_t len);

// f32 kernels whose REVERT subtracts speculative sums over aligned blocks of B items (V3: 512)
// get an allowance per result of this times the sum of |x| over the block holding the result's
// segment start, from its first item up to the result's item or that block's end (the
// subtraction's error, which later blocks of the segment carry on), plus the result's own block
// up to it when that is a later one: only the error beyond it counts against f32_bound
// (speculation_block = B > 0). The MMA's fp32 accumulation aligns its 17 addends to the largest
// and truncates, so each product can lose a few ulps of the block's magnitude; measured on the
// H100 the errors in the start's block stayed below 2^-22 of the scale (check's random data).
inline constexpr double kSpeculationAllowance = 0x1p-19;

// Segmented inclusive scan: out against the reference of x with starts at flags (flags ==
// nullptr: one segment). f32: per segment ||out - ref||_2 / ||ref||_2 <= f32_bound(len).
verdict verify_segmented_scan(dtype t, const void* x, const std::uint8_t* flags, const void* out,
                              std::int64_t n, std::int64_t speculation_block = 0);
// Segmented sum: sums[k] per segment (f32: |out - ref| <= f32_bound(len) * sum |x|), and, when
// offsets != nullptr, offsets[k] == segment start, offsets[count] == n, and count right.
verdict verify_segmented_sum(dtype t, const void* x, const std::uint8_t* flags, const void* sums,
                             const std::int64_t* offsets, std::int64_t reported_segments,
                             std::int64_t n, std::int64_t speculation_block = 0);
// Reduction: sum[0] against the float64 sum of x (f32: |out - ref| <= f32_bound(n) * sum |x|;
// i32: exact, wrapping).
verdict verify_reduce(dtype t, const void* x, const void* sum, std::int64_t n);
// Exact copy.
verdict verify_copy(const void* x, const void* out, std::int64_t bytes);

}  // namespace mmv::gpu::harness
