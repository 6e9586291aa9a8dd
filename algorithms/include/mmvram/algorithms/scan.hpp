// Unsegmented inclusive scans (prefix sums) on the MMV-RAM machine: two VCU-only baselines
// (Hillis–Steele, Brent–Kung/Blelloch) and MatMulScan (Zouzias & McColl), whose in-block work
// runs on the MMU. Each returns out[i] = x[0] + ... + x[i] and states its exact cost.
#pragma once
#include "mmvram/algorithms/common.hpp"

#include <cstdint>

namespace mmv {

// Hillis–Steele on the VCU: ceil(log2 n) rounds of x += shift(x, 2^d). Any n >= 0.
// Steps 2*ceil(log2 n) (one shift + one add per round), work 2n*ceil(log2 n).
template <class T> vec<T> hillis_steele_scan(machine& m, const vec<T>& x);

// Brent–Kung / Blelloch on the VCU: pairwise up-sweep to one pair, exclusive down-sweep
// (gather_strided, add, scatter), then one add of x. Any n >= 0 (zero-padded to 2^k).
// O(n) work; exact counts in brent_kung_predicted_cost.
template <class T> vec<T> brent_kung_scan(machine& m, const vec<T>& x);

// MatMulScan: s-ary up-sweep with in-row prefix/total products on the MMU, exclusive
// down-sweep with the carry matrix on the MMU, then one VCU add of x. Any n >= 0, any s >= 2.
// Outputs and all intermediates are sums of contiguous ranges of x: B >= ceil(log2(n max|x|))+1.
template <class T> vec<T> matmul_scan(machine& m, const vec<T>& x);

// MatMulScan with at most 2 floor(log_s n) MMU steps for every n (the paper's corollary; the
// plain form takes 2 ceil(log_s n) - 1, one more when n is not a power of s): then the top level's
// c <= s totals are scanned on the VCU (Hillis-Steele, 2 ceil(log2 c) + 1 steps), and n < s is
// Hillis-Steele alone. Same result and width rule as matmul_scan; n = s^k runs matmul_scan's steps.
template <class T> vec<T> matmul_scan_vcu_top(machine& m, const vec<T>& x);

// Exact ledger counts of the scans on n elements with tile size s (s matters only for
// MatMulScan; the VCU-only scans ignore it). n >= 0, s >= 2.
cost_prediction hillis_steele_predicted_cost(std::int64_t n, int s);
cost_prediction brent_kung_predicted_cost(std::int64_t n, int s);
cost_prediction matmul_scan_predicted_cost(std::int64_t n, int s);
cost_prediction matmul_scan_vcu_top_predicted_cost(std::int64_t n, int s);

}  // namespace mmv
