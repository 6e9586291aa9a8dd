// Segmented sum and scan on the MMV-RAM with the MMU doing the arithmetic (Sobczyk, Sorrentino,
// Zouzias 2025): a speculative unsegmented MatMulScan repaired on the VCU.
//   SCD        = DIFF o COMPRESS o SCAN            (segmented sum)    docs/algorithms/scd.md
//   SSCR       = REVERT o COMPRESS o (SCAN, SCAN)  (segmented scan)   docs/algorithms/sscr.md
//   block SSCR = in-block scans + REVSPEC, recursion on block carries  docs/algorithms/block_sscr.md
// Flags: f[i] = 1 starts a segment; position 0 always starts one, whatever f[0] holds. Every f[i]
// must be 0 or 1 and x, f must have equal lengths (model_error otherwise).
#pragma once
#include "mmvram/algorithms/common.hpp"

#include <cstdint>

namespace mmv {

// SCD: one sum per segment, in order (length = number of segments). O(log_s n) steps.
// Integer runs need B >= 1 + ceil(log2(n * max|x| + 1)) (the speculative scan of x).
template <class T> vec<T> scd_segmented_sum(machine& m, const vec<T>& x, const word_vec& f);

// SSCR: inclusive segmented scan, out[i] = x[j] + ... + x[i] for j the start of i's segment.
// O(log_s n) steps; integer runs need B >= 1 + ceil(log2(n * max|x| + 1)).
template <class T> vec<T> sscr_segmented_scan(machine& m, const vec<T>& x, const word_vec& f);

// Block-recursive SSCR: in-block MMU scans, REVSPEC, recursion on the ceil(n/s) block carries.
// Same result as SSCR; O(log_s n) steps, O(n s) work; integer runs need only
// B >= 1 + ceil(log2(max(min(n, s L) max|x|, n/s, s) + 1)), L the longest segment.
template <class T> vec<T> block_sscr_segmented_scan(machine& m, const vec<T>& x, const word_vec& f);

// Exact ledger counts of the three algorithms for n values (n >= 0) on an MMU of size s. SCD
// and SSCR spend VCU work on the compressed vector of segment ends, so their vcu_work depends
// on the number of segments; the two-argument forms assume one segment (all other fields are
// independent of it). Block SSCR's counts depend on n and s only.
cost_prediction scd_predicted_cost(std::int64_t n, int s);
cost_prediction scd_predicted_cost(std::int64_t n, int s, std::int64_t segments);
cost_prediction sscr_predicted_cost(std::int64_t n, int s);
cost_prediction sscr_predicted_cost(std::int64_t n, int s, std::int64_t segments);
cost_prediction block_sscr_predicted_cost(std::int64_t n, int s);

namespace detail {

// The part SCD and SSCR share: COMPRESS o (SCAN x, SCAN f). `ends` holds x_hat at the last
// position of every segment; `segment` = SCAN(f) - 1 is each position's segment number.
template <class T>
struct speculated_segments {
  vec<T> x_hat;
  word_vec segment;
  vec<T> ends;
};
template <class T>
speculated_segments<T> speculate_and_compress(machine& m, const vec<T>& x, const word_vec& f,
                                              const char* caller);

}  // namespace detail
}  // namespace mmv
