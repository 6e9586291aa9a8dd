// VCU-only segmented inclusive scans, the baselines the MMU algorithms (SCD/SSCR) beat:
// the Schwartz operator transform on (flag, value) pairs and the direct min-index form of
// Sengupta, Harris & Garland. Both take Theta(log n) steps. f[i] = 1 starts a segment at i;
// position 0 always starts one whatever f[0] holds.
#pragma once
#include "mmvram/algorithms/common.hpp"

#include <cstdint>

namespace mmv {

// Hillis–Steele scan of (continue-flag, value) pairs, c = 1 - f:
// (c_a, a) + (c_b, b) = (c_a & c_b, b + (c_b ? a : 0)). Lengths of x and f must match and f
// must hold 0/1 (model_error otherwise). Steps 5 ceil(log2 n) - 1 (n >= 2), depth 3 ceil(log2 n).
// Every intermediate is a sum inside one segment: B must hold the segmented values only.
template <class T> vec<T> schwartz_segmented_scan(machine& m, const vec<T>& x, const word_vec& f);

// Min-index form: mindex = max-scan of (f ? i : 0), then rounds d add x[i - 2^d] to x[i]
// where i - mindex[i] >= 2^d. Same input rules and width rule (plus indices 0..n-1);
// steps 6 ceil(log2 n) + 3, depth 5 ceil(log2 n) + 3 (n >= 2).
template <class T> vec<T> min_index_segmented_scan(machine& m, const vec<T>& x, const word_vec& f);

// Exact ledger counts for n elements (s is unused: VCU only). n >= 0, s >= 2.
cost_prediction schwartz_segmented_scan_predicted_cost(std::int64_t n, int s);
cost_prediction min_index_segmented_scan_predicted_cost(std::int64_t n, int s);

}  // namespace mmv
