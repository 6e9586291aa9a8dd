// VCU-only scans at the strength the VCU lower bound allows (docs/algorithms/iterated_addition.md):
// a k-ary tree of the optional iterated-addition instructions (machine::block_prefix_sum), which
// the machine refuses unless machine_config::iterated_addition_limit >= k. k = max(2, ceil(log2 n))
// words per block, so the tree has ceil(log_k n) = O(log n / log log n) levels.
#pragma once
#include "mmvram/algorithms/common.hpp"

#include <cstdint>

namespace mmv {

// The block size both scans use on n elements: max(2, ceil(log2 n)) (n >= 0; 2 for n <= 4).
std::int64_t iterated_addition_block(std::int64_t n);

// Inclusive scan, out[i] = x[0] + ... + x[i]. Level by level: in-block prefix sums, the block
// totals (shifted by one block) recursed on, their prefix sums gathered back and added.
// Steps 6 (ceil(log_k n) - 1) + 1 (n >= 2; 0 for n <= 1). Every intermediate is the sum of a
// contiguous range of x (or an index < n): B >= 1 + ceil(log2(n max|x| + 1)).
template <class T> vec<T> iterated_addition_scan(machine& m, const vec<T>& x);

// Segmented inclusive scan: f[i] = 1 starts a segment at i (position 0 always starts one). The
// same tree on (block tail sum, block has a head) pairs; carries are selected before they are
// added, so every intermediate is a sum inside one segment: B must hold the segmented values.
// Steps 11 (ceil(log_k n) - 1) + 1 (n >= 2). model_error when lengths differ or f is not 0/1.
template <class T> vec<T> iterated_addition_segmented_scan(machine& m, const vec<T>& x, const word_vec& f);

// Exact ledger counts of the two scans on n elements (s is unused: VCU only). n >= 0, s >= 2.
cost_prediction iterated_addition_scan_predicted_cost(std::int64_t n, int s);
cost_prediction iterated_addition_segmented_scan_predicted_cost(std::int64_t n, int s);

}  // namespace mmv
