// The decayed (weighted) segmented scan h_j = a_j·h_{j−1} + b_j, restarted (h_j = b_j) at every
// flagged position and at j = 0, on a float machine. The stable form multiplies by the
// 1-semiseparable matrix exp(segsum(log a)) built additively on the MMU (docs/algorithms/decayed_scan.md); the
// unstable form takes differences of one global scan of log a and breaks down on long inputs.
#pragma once
#include "mmvram/algorithms/common.hpp"

#include <cstdint>

namespace mmv {

// Stable: per s-block the pairwise log-decays come from one MMU product of the replicated and
// masked log a with a constant suffix matrix (additions only), then exp, × b and an MMU row
// total; block carries recurse on ceil(n/s) blocks. a_j in (0, 1] (a_j at flags is ignored),
// all lengths equal, flags 0/1; float32 or float64 machine. O(log_s n) steps.
real_vec decayed_scan_stable(machine& m, const real_vec& a, const real_vec& b, const word_vec& f);

// Unstable (for comparison): c = MatMulScan(log a), h_j = exp(c_j)·segscan(exp(−c_i)·b_i) with
// the segmented scan SSCR. Exact in real arithmetic; exp(−c) overflows once −c_n exceeds the
// format's exponent range (about 88 in float32, 709 in float64), giving inf/NaN.
real_vec decayed_scan_unstable(machine& m, const real_vec& a, const real_vec& b, const word_vec& f);

// Exact ledger counts of decayed_scan_stable on n elements with tile size s (inputs loaded,
// i.e. at depth 0). n >= 0, s >= 2.
cost_prediction decayed_scan_stable_predicted_cost(std::int64_t n, int s);

// Exact ledger counts of decayed_scan_unstable on n elements in `segments` segments (position 0
// always starts one) with tile size s, inputs at depth 0. n >= 0, s >= 2, 1 <= segments <= n.
cost_prediction decayed_scan_unstable_predicted_cost(std::int64_t n, int s, std::int64_t segments);

}  // namespace mmv
