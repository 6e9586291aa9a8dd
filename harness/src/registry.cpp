// The algorithm table: one entry per algorithm, with designated initializers; the runners that
// load, run and verify are in runners.hpp, the word width rules in word_bits.hpp.
#include "mmvram/harness/registry.hpp"

#include "runners.hpp"

#include "mmvram/algorithms/applications.hpp"
#include "mmvram/algorithms/decayed_scan.hpp"
#include "mmvram/algorithms/iterated_addition.hpp"
#include "mmvram/algorithms/scan.hpp"
#include "mmvram/algorithms/segmented.hpp"
#include "mmvram/algorithms/segmented_baselines.hpp"
#include "mmvram/algorithms/state_passing.hpp"

namespace mmv {

namespace {

using namespace runners;

std::vector<algorithm_entry> make_table() {
  std::vector<algorithm_entry> t;
  // The terms of the minimum word width (the entry's word_bits rule computes it from the input;
  // `run` reports it as min_word_bits). R: the largest |range sum| of x (the total for one-signed x).
  const std::string scan_bits = "fits R";
  const std::string segment_bits = "fits R within segments";
  const std::string speculated_bits = "fits R, the segment count, n' - s (n > s)";
  t.push_back({.name = "hillis-steele-scan",
               .title = "inclusive scan, Hillis-Steele doubling on the VCU",
               .units = "VCU only",
               .step_bound = "2 ceil(log2 n)",
               .work_bound = "O(n log n)",
               .min_word_bits = scan_bits,
               .shape = input_shape::values,
               .run = scan_runner([](machine& m, const auto& x) { return hillis_steele_scan(m, x); }),
               .predicted = by_size(&hillis_steele_predicted_cost),
               .closed_form = &hillis_steele_predicted_cost,
               .word_bits = scan_rule()});
  t.push_back({.name = "brent-kung-scan",
               .title = "inclusive scan, Brent-Kung up/down sweep on the VCU",
               .units = "VCU only",
               .step_bound = "O(log n)",
               .work_bound = "O(n)",
               .min_word_bits = "fits R, 2^ceil(log2 n) - 1 (n > 2)",
               .shape = input_shape::values,
               .run = scan_runner([](machine& m, const auto& x) { return brent_kung_scan(m, x); }),
               .predicted = by_size(&brent_kung_predicted_cost),
               .closed_form = &brent_kung_predicted_cost,
               .word_bits = scan_rule([](std::int64_t n, int) -> __int128 {
                 return n > 2 ? (std::int64_t{1} << ceil_log(n, 2)) - 1 : 0;
               })});
  t.push_back({.name = "matmul-scan",
               .title = "inclusive scan, MatMulScan up/down sweep on the MMU",
               .units = "MMU+VCU",
               .step_bound = "O(log_s n)",
               .work_bound = "O(n s)",
               .min_word_bits = "fits R, n' - s (n > s; n' = n padded to c s^(k-1))",
               .shape = input_shape::values,
               .run = scan_runner([](machine& m, const auto& x) { return matmul_scan(m, x); }),
               .predicted = by_size(&matmul_scan_predicted_cost),
               .closed_form = &matmul_scan_predicted_cost,
               .word_bits = scan_rule(&matmul_scan_addresses),
               .fused_kernels = {"matmul_scan", "matmul_scan_tc", "matmul_scan_tc_warp"}});
  t.push_back({.name = "schwartz-segmented-scan",
               .title = "segmented scan, Schwartz operator transform on (flag, value) pairs",
               .units = "VCU only",
               .step_bound = "5 ceil(log2 n)-1, n>1",
               .work_bound = "O(n log n)",
               .min_word_bits = segment_bits,
               .shape = input_shape::segmented,
               .run = segmented_runner(false, [](machine& m, const auto& x, const word_vec& f) { return schwartz_segmented_scan(m, x, f); }),
               .predicted = by_size(&schwartz_segmented_scan_predicted_cost),
               .closed_form = &schwartz_segmented_scan_predicted_cost,
               .word_bits = segmented_rule([](std::int64_t, int) -> __int128 { return 1; })});
  t.push_back({.name = "min-index-segmented-scan",
               .title = "segmented scan, Sengupta's min-index (direct) form",
               .units = "VCU only",
               .step_bound = "6 ceil(log2 n) + 3",
               .work_bound = "O(n log n)",
               .min_word_bits = "fits R within segments, n - 1",
               .shape = input_shape::segmented,
               .run = segmented_runner(false, [](machine& m, const auto& x, const word_vec& f) { return min_index_segmented_scan(m, x, f); }),
               .predicted = by_size(&min_index_segmented_scan_predicted_cost),
               .closed_form = &min_index_segmented_scan_predicted_cost,
               .word_bits = segmented_rule([](std::int64_t n, int) -> __int128 { return n - 1; })});
  t.push_back({.name = "scd",
               .title = "segmented sum, SCD = DIFF o COMPRESS o SCAN",
               .units = "MMU+VCU",
               .step_bound = "O(log_s n)",
               .work_bound = "O(n s)",
               .min_word_bits = speculated_bits,
               .shape = input_shape::segmented,
               .run = segmented_runner(true, [](machine& m, const auto& x, const word_vec& f) { return scd_segmented_sum(m, x, f); }),
               .predicted = [](const algorithm_input& in, const machine_config& c) {
                 return std::optional(scd_predicted_cost(in.n, c.s, segment_count(input_shape::segmented, in)));
               },
               .closed_form = [](std::int64_t n, int s) { return scd_predicted_cost(n, s); },
               .word_bits = &speculated_word_bits,
               .fused_kernels = {"scd_segmented_sum", "scd_segmented_sum_tc", "scd_segmented_sum_tc_rows",
                                 "scd_segmented_sum_tc_warp"}});
  t.push_back({.name = "sscr",
               .title = "segmented scan, SSCR = REVERT o COMPRESS o (SCAN x, SCAN f)",
               .units = "MMU+VCU",
               .step_bound = "O(log_s n)",
               .work_bound = "O(n s)",
               .min_word_bits = speculated_bits,
               .shape = input_shape::segmented,
               .run = segmented_runner(false, [](machine& m, const auto& x, const word_vec& f) { return sscr_segmented_scan(m, x, f); }),
               .predicted = [](const algorithm_input& in, const machine_config& c) {
                 return std::optional(sscr_predicted_cost(in.n, c.s, segment_count(input_shape::segmented, in)));
               },
               .closed_form = [](std::int64_t n, int s) { return sscr_predicted_cost(n, s); },
               .word_bits = &speculated_word_bits,
               .fused_kernels = {"sscr_segmented_scan", "sscr_segmented_scan_tc", "sscr_segmented_scan_tc_rows",
                                 "sscr_segmented_scan_tc_warp"}});
  t.push_back({.name = "block-sscr",
               .title = "segmented scan, block-recursive SSCR with REVSPEC",
               .units = "MMU+VCU",
               .step_bound = "O(log_s n)",
               .work_bound = "O(n s)",
               .min_word_bits = "fits every in-block and carried sum, flags per block, blocks - 1 (level by level)",
               .shape = input_shape::segmented,
               .run = segmented_runner(false, [](machine& m, const auto& x, const word_vec& f) { return block_sscr_segmented_scan(m, x, f); }),
               .predicted = by_size(&block_sscr_predicted_cost),
               .closed_form = &block_sscr_predicted_cost,
               .word_bits = &block_sscr_word_bits});
  t.push_back({.name = "decayed-scan-stable",
               .title = "decayed segmented scan h = a h + b, exp(segsum(log a)) blocks on the MMU",
               .units = "MMU+VCU",
               .step_bound = "O(log_s n)",
               .work_bound = "O(n s)",
               .min_word_bits = "float modes only",
               .shape = input_shape::decayed,
               .integer_ok = false,
               .run = decayed_runner(&decayed_scan_stable),
               .predicted = by_size(&decayed_scan_stable_predicted_cost),
               .no_closed_form = "float only: the closed forms are those of the crossover's scans"});
  t.push_back({.name = "decayed-scan-unstable",
               .title = "decayed segmented scan by differences of one scan of log a (breaks down)",
               .units = "MMU+VCU",
               .step_bound = "O(log_s n)",
               .work_bound = "O(n s)",
               .min_word_bits = "float modes only; fails once -sum log a > ~88 (f32)",
               .shape = input_shape::decayed,
               .integer_ok = false,
               .breaks_down = true,
               .run = decayed_runner(&decayed_scan_unstable),
               .predicted = [](const algorithm_input& in, const machine_config& c) {
                 return std::optional(decayed_scan_unstable_predicted_cost(in.n, c.s, segment_count(input_shape::decayed, in)));
               },
               .no_closed_form = "float only, and its counts depend on the segments"});
  t.push_back({.name = "state-passing",
               .title = "multi-lane decayed segmented scan over n chunks of H x N x V lanes, decays shared per row or head",
               .units = "MMU+VCU",
               .step_bound = "O(log_s n)",
               .work_bound = "O(n H N V s)",
               .min_word_bits = "float modes only",
               .shape = input_shape::lanes,
               .integer_ok = false,
               .run = &run_state_passing,
               .predicted = [](const algorithm_input& in, const machine_config& c) {
                 const state_shape& l = in.lanes;
                 return std::optional(state_passing_predicted_cost(in.n, l.heads, l.rows, l.cols, l.per_head, c.s));
               },
               .no_closed_form = "its counts depend on the lanes H x N x V",
               .fused_kernels = {"cuda_core", "tensor_core", "tensor_core_speculative"}});
  t.push_back({.name = "spmv",
               .title = "CSR sparse matrix times vector, GATHER -> MULT -> SCD",
               .units = "MMU+VCU",
               .step_bound = "O(log_s nnz + log_s B)",
               .work_bound = "O(nnz s)",
               .min_word_bits = "fits a, v, a v, R of the products, nnz, rows, n' - s, nnz c1 - 1 (c1 = ceil((B-1)/s) >= 2)",
               .shape = input_shape::sparse_matrix,
               .run = &run_spmv,
               .predicted = &predict_spmv,
               .no_closed_form = "its counts depend on the matrix's rows and non-empty rows",
               .word_bits = &spmv_word_bits});
  t.push_back({.name = "elementwise-product",
               .title = "x_i * y_i of B-bit integers: weighted MMU row sums of bit copies, ceil(log_s(B-1)) levels",
               .units = "MMU+VCU",
               .step_bound = "O(log_s B)",
               .work_bound = "O(n B s)",
               .min_word_bits = "fits x, y, x y, n - 1, s c1 - 1, n c1 - 1 (c1 = ceil((B-1)/s) >= 2)",
               .shape = input_shape::vector_pair,
               .float_ok = false,
               .run = &run_elementwise_product,
               .predicted = [](const algorithm_input& in, const machine_config& c) {
                 return std::optional(elementwise_product_predicted_cost(in.n, c.s, c.word_bits));
               },
               .no_closed_form = "its counts depend on the word width B",
               .word_bits = &elementwise_product_word_bits});
  t.push_back({.name = "matrix-product",
               .title = "n x n integer matrix product: n^3 products, one SCD with segments of n",
               .units = "MMU+VCU",
               .step_bound = "O(log_s B + log_s n)",
               .work_bound = "O(n^3 B s)",
               .min_word_bits = "fits X, Y, their n^3 products and R of those, n^2 - 1, n^3 c1 - 1 (c1 as elementwise)",
               .shape = input_shape::matrix_pair,
               .float_ok = false,
               .run = &run_matrix_product,
               .predicted = [](const algorithm_input& in, const machine_config& c) {
                 return std::optional(matrix_product_predicted_cost(in.n, c.s, c.word_bits));
               },
               .no_closed_form = "its counts depend on the word width B",
               .word_bits = &matrix_product_word_bits});
  t.push_back({.name = "iterated-addition-scan",
               .title = "inclusive scan, k-ary tree of iterated additions, k = max(2, ceil(log2 n))",
               .units = "VCU+iadd",
               .step_bound = "6 ceil(log_k n)-5, n>1",
               .work_bound = "O(n log n)",
               .min_word_bits = "fits R, ceil(n/k) - 1",
               .shape = input_shape::values,
               .run = scan_runner([](machine& m, const auto& x) { return iterated_addition_scan(m, x); }),
               .predicted = by_size(&iterated_addition_scan_predicted_cost),
               .closed_form = &iterated_addition_scan_predicted_cost,
               .word_bits = scan_rule(&iterated_addition_addresses),
               .iterated_addition_limit = &iterated_addition_block});
  t.push_back({.name = "iterated-addition-segmented-scan",
               .title = "segmented scan, k-ary tree of segmented iterated additions, k = max(2, ceil(log2 n))",
               .units = "VCU+iadd",
               .step_bound = "11 ceil(log_k n)-10",
               .work_bound = "O(n log n)",
               .min_word_bits = "fits R within segments, ceil(n/k) - 1",
               .shape = input_shape::segmented,
               .run = segmented_runner(false, [](machine& m, const auto& x, const word_vec& f) {
                 return iterated_addition_segmented_scan(m, x, f);
               }),
               .predicted = by_size(&iterated_addition_segmented_scan_predicted_cost),
               .closed_form = &iterated_addition_segmented_scan_predicted_cost,
               .word_bits = segmented_rule(&iterated_addition_addresses),
               .iterated_addition_limit = &iterated_addition_block});
  return t;
}

}  // namespace

const std::vector<algorithm_entry>& algorithm_table() {
  static const std::vector<algorithm_entry> table = make_table();
  return table;
}

const algorithm_entry& find_algorithm(const std::string& name) {
  for (const auto& e : algorithm_table())
    if (e.name == name) return e;
  std::string known;
  for (const auto& e : algorithm_table()) known += (known.empty() ? "" : ", ") + e.name;
  throw model_error("unknown algorithm '" + name + "' (known: " + known + ")");
}

word_bits_need min_word_bits(const algorithm_entry& e, const algorithm_input& in, int s) {
  if (!e.word_bits) throw model_error("min_word_bits: " + e.name + " has no integer mode");
  return e.word_bits(in, s);
}

}  // namespace mmv
