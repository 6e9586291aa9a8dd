// The algorithm table. Each runner loads the host input into the machine (scalar unit, free),
// calls the algorithm, reads the result back and compares it with the sequential reference:
// exactly for integers, within a rounding bound for floats (verify.hpp).
#include "mmvram/harness/registry.hpp"

#include "mmvram/algorithms/applications.hpp"
#include "mmvram/algorithms/decayed_scan.hpp"
#include "mmvram/algorithms/iterated_addition.hpp"
#include "mmvram/harness/reference.hpp"
#include "mmvram/algorithms/scan.hpp"
#include "mmvram/algorithms/segmented.hpp"
#include "mmvram/algorithms/segmented_baselines.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace mmv {

namespace {

// Times `body` (load, run, read back) and returns its host result.
template <class F>
auto timed(double& seconds, F body) {
  const auto start = std::chrono::steady_clock::now();
  auto result = body();
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

template <class T>
const std::vector<T>& values_of(const algorithm_input& in) {
  if constexpr (std::is_same_v<T, word>) return in.words;
  else return in.reals;
}

// Unsegmented scans: out = inclusive_scan(x).
template <class T, class Algo>
algorithm_outcome run_scan_as(machine& m, const algorithm_input& in, Algo algo) {
  const auto& f = m.config().format;
  const auto x = held(values_of<T>(in), f);
  double seconds = 0;
  const auto got = timed(seconds, [&] { return m.read(algo(m, m.load<T>(x, "x"))); });
  const double mag = std::is_same_v<T, real> ? abs_sum(held(in.reals, f)) : 0;
  return checked(got, reference::inclusive_scan(x), tolerance(f, in.n, m.config().s, mag), seconds, f);
}

// Segmented scans (sum = false) and sums (sum = true) of x with flags f.
template <class T, class Algo>
algorithm_outcome run_segmented_as(machine& m, const algorithm_input& in, bool sum, Algo algo) {
  const auto& f = m.config().format;
  const auto x = held(values_of<T>(in), f);
  double seconds = 0;
  const auto got = timed(seconds, [&] { return m.read(algo(m, m.load<T>(x, "x"), m.load<word>(in.flags, "f"))); });
  const auto want = sum ? reference::segmented_sum(x, in.flags) : reference::segmented_scan(x, in.flags);
  const double mag = std::is_same_v<T, real> ? abs_sum(held(in.reals, f)) : 0;
  return checked(got, want, tolerance(f, in.n, m.config().s, mag), seconds, f);
}

bool is_integer(const machine& m) { return m.config().format == number_format::integer; }

// Entry makers for the two common signatures; `algo` is a generic lambda over vec<T>.
template <class Algo>
algorithm_entry::runner scan_runner(Algo algo) {
  return [algo](machine& m, const algorithm_input& in) {
    return is_integer(m) ? run_scan_as<word>(m, in, algo) : run_scan_as<real>(m, in, algo);
  };
}

template <class Algo>
algorithm_entry::runner segmented_runner(bool sum, Algo algo) {
  return [sum, algo](machine& m, const algorithm_input& in) {
    return is_integer(m) ? run_segmented_as<word>(m, in, sum, algo) : run_segmented_as<real>(m, in, sum, algo);
  };
}

// Decayed scans: h_j = a_j h_{j-1} + b_j, restarted at flags; checked against the double
// reference within tolerance() of the magnitude of the same recurrence on |b|.
algorithm_entry::runner decayed_runner(real_vec (*algo)(machine&, const real_vec&, const real_vec&, const word_vec&)) {
  return [algo](machine& m, const algorithm_input& in) {
    const auto& f = m.config().format;
    const auto a = held(in.decays, f), b = held(in.reals, f);
    double seconds = 0;
    const auto got = timed(seconds, [&] {
      return m.read(algo(m, m.load<real>(a, "a"), m.load<real>(b, "b"), m.load<word>(in.flags, "f")));
    });
    std::vector<real> abs_b(b.size());
    std::transform(b.begin(), b.end(), abs_b.begin(), [](real v) { return std::fabs(v); });
    const auto bound = reference::decayed_scan(a, abs_b, in.flags);
    const double mag = bound.empty() ? 0 : *std::max_element(bound.begin(), bound.end());
    return checked(got, reference::decayed_scan(a, b, in.flags), tolerance(f, in.n, m.config().s, mag), seconds, f);
  };
}

// SpMV: y = A v. The reference sums each row's exact products without rounding error (integers:
// exactly; reals: reference::exact_sum); the
// float tolerance scales with the sum of |a_rk v_k| over all entries, which SCD's speculative
// scan runs through.
algorithm_outcome run_spmv(machine& m, const algorithm_input& in) {
  const csr_matrix& a = in.matrix;
  double seconds = 0;
  if (is_integer(m)) {  // the reference after the run: a width_error would have stopped it
    const auto got = timed(seconds, [&] { return m.read(spmv_csr(m, a, m.load<word>(in.words, "v"))); });
    std::vector<word> want(static_cast<std::size_t>(a.rows), 0);
    for (std::int64_t r = 0; r < a.rows; ++r)
      for (auto k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) want[r] += static_cast<word>(a.values[k]) * in.words[a.col_idx[k]];
    return checked(got, want, 0, seconds, m.config().format);
  }
  csr_matrix rounded = a;
  std::vector<real> v = in.reals;
  if (m.config().format == number_format::float32) {
    for (auto& x : rounded.values) x = static_cast<float>(x);
    for (auto& x : v) x = static_cast<float>(x);
  }
  std::vector<real> want(static_cast<std::size_t>(a.rows), 0.0);
  double mag = 0;
  for (std::int64_t r = 0; r < a.rows; ++r) {
    reference::exact_sum row;
    for (auto k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
      row.add_product(rounded.values[k], v[a.col_idx[k]]);
      mag += std::fabs(rounded.values[k] * v[a.col_idx[k]]);
    }
    want[r] = row.value();
  }
  const auto got = timed(seconds, [&] { return m.read(spmv_csr(m, rounded, m.load<real>(v, "v"))); });
  const auto& f = m.config().format;
  return checked(got, want, tolerance(f, in.n, m.config().s, mag), seconds, f);
}

std::optional<cost_prediction> predict_spmv(const algorithm_input& in, const machine_config& c) {
  const auto& a = in.matrix;
  std::int64_t nonempty = 0;
  for (std::int64_t r = 0; r < a.rows; ++r) nonempty += a.row_ptr[r + 1] > a.row_ptr[r];
  return spmv_csr_predicted_cost(a.rows, a.nonzeros(), nonempty, c.s,
                                 c.format == number_format::integer ? c.word_bits : 0);
}

// The products' references are computed after the run: it raises width_error on any product
// or sum that does not fit B <= 64 bits, so the host arithmetic below cannot overflow.
algorithm_outcome run_elementwise_product(machine& m, const algorithm_input& in) {
  double seconds = 0;
  const auto got = timed(seconds, [&] {
    return m.read(elementwise_product(m, m.load<word>(in.words, "x"), m.load<word>(in.words2, "y")));
  });
  std::vector<word> want(in.words.size());
  for (std::size_t i = 0; i < want.size(); ++i) want[i] = in.words[i] * in.words2[i];
  return checked(got, want, 0, seconds, number_format::integer);
}

algorithm_outcome run_matrix_product(machine& m, const algorithm_input& in) {
  const std::int64_t n = in.n;
  double seconds = 0;
  const auto got = timed(seconds, [&] {
    return matrix_product(m, m.load<word>(in.words, "X"), m.load<word>(in.words2, "Y"), n);
  });
  std::vector<word> want(static_cast<std::size_t>(n * n), 0);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t k = 0; k < n; ++k)
      for (std::int64_t j = 0; j < n; ++j) want[i * n + j] += in.words[i * n + k] * in.words2[k * n + j];
  return checked(got, want, 0, seconds, number_format::integer);
}

algorithm_entry::predictor by_size(cost_prediction (*f)(std::int64_t, int)) {
  return [f](const algorithm_input& in, const machine_config& c) { return std::optional(f(in.n, c.s)); };
}

std::vector<algorithm_entry> make_table() {
  std::vector<algorithm_entry> t;
  // The terms of the minimum word width (word_bits.cpp computes it from the input; `run`
  // reports it as min_word_bits). R: the largest |range sum| of x (the total for one-signed x).
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
               .predicted = by_size(&hillis_steele_predicted_cost)});
  t.push_back({.name = "brent-kung-scan",
               .title = "inclusive scan, Brent-Kung up/down sweep on the VCU",
               .units = "VCU only",
               .step_bound = "O(log n)",
               .work_bound = "O(n)",
               .min_word_bits = "fits R, 2^ceil(log2 n) - 1 (n > 2)",
               .shape = input_shape::values,
               .run = scan_runner([](machine& m, const auto& x) { return brent_kung_scan(m, x); }),
               .predicted = by_size(&brent_kung_predicted_cost)});
  t.push_back({.name = "matmul-scan",
               .title = "inclusive scan, MatMulScan up/down sweep on the MMU",
               .units = "MMU+VCU",
               .step_bound = "O(log_s n)",
               .work_bound = "O(n s)",
               .min_word_bits = "fits R, n' - s (n > s; n' = n padded to c s^(k-1))",
               .shape = input_shape::values,
               .run = scan_runner([](machine& m, const auto& x) { return matmul_scan(m, x); }),
               .predicted = by_size(&matmul_scan_predicted_cost)});
  t.push_back({.name = "schwartz-segmented-scan",
               .title = "segmented scan, Schwartz operator transform on (flag, value) pairs",
               .units = "VCU only",
               .step_bound = "5 ceil(log2 n)-1, n>1",
               .work_bound = "O(n log n)",
               .min_word_bits = segment_bits,
               .shape = input_shape::segmented,
               .run = segmented_runner(false, [](machine& m, const auto& x, const word_vec& f) { return schwartz_segmented_scan(m, x, f); }),
               .predicted = by_size(&schwartz_segmented_scan_predicted_cost)});
  t.push_back({.name = "min-index-segmented-scan",
               .title = "segmented scan, Sengupta's min-index (direct) form",
               .units = "VCU only",
               .step_bound = "6 ceil(log2 n) + 3",
               .work_bound = "O(n log n)",
               .min_word_bits = "fits R within segments, n - 1",
               .shape = input_shape::segmented,
               .run = segmented_runner(false, [](machine& m, const auto& x, const word_vec& f) { return min_index_segmented_scan(m, x, f); }),
               .predicted = by_size(&min_index_segmented_scan_predicted_cost)});
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
               }});
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
               }});
  t.push_back({.name = "block-sscr",
               .title = "segmented scan, block-recursive SSCR with REVSPEC",
               .units = "MMU+VCU",
               .step_bound = "O(log_s n)",
               .work_bound = "O(n s)",
               .min_word_bits = "fits every in-block and carried sum, flags per block, blocks - 1 (level by level)",
               .shape = input_shape::segmented,
               .run = segmented_runner(false, [](machine& m, const auto& x, const word_vec& f) { return block_sscr_segmented_scan(m, x, f); }),
               .predicted = by_size(&block_sscr_predicted_cost)});
  t.push_back({.name = "decayed-scan-stable",
               .title = "decayed segmented scan h = a h + b, exp(segsum(log a)) blocks on the MMU",
               .units = "MMU+VCU",
               .step_bound = "O(log_s n)",
               .work_bound = "O(n s)",
               .min_word_bits = "float modes only",
               .shape = input_shape::decayed,
               .integer_ok = false,
               .run = decayed_runner(&decayed_scan_stable),
               .predicted = by_size(&decayed_scan_stable_predicted_cost)});
  t.push_back({.name = "decayed-scan-unstable",
               .title = "decayed segmented scan by differences of one scan of log a (breaks down)",
               .units = "MMU+VCU",
               .step_bound = "O(log_s n)",
               .work_bound = "O(n s)",
               .min_word_bits = "float modes only; fails once -sum log a > ~88 (f32)",
               .shape = input_shape::decayed,
               .integer_ok = false,
               .run = decayed_runner(&decayed_scan_unstable),
               .predicted = [](const algorithm_input& in, const machine_config& c) {
                 return std::optional(decayed_scan_unstable_predicted_cost(in.n, c.s, segment_count(input_shape::decayed, in)));
               }});
  t.push_back({.name = "spmv",
               .title = "CSR sparse matrix times vector, GATHER -> MULT -> SCD",
               .units = "MMU+VCU",
               .step_bound = "O(log_s nnz + log_s B)",
               .work_bound = "O(nnz s)",
               .min_word_bits = "fits a, v, a v, R of the products, nnz, rows, n' - s, nnz c1 - 1 (c1 = ceil((B-1)/s) >= 2)",
               .shape = input_shape::sparse_matrix,
               .run = &run_spmv,
               .predicted = &predict_spmv});
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
               }});
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
               }});
  t.push_back({.name = "iterated-addition-scan",
               .title = "inclusive scan, k-ary tree of iterated additions, k = max(2, ceil(log2 n))",
               .units = "VCU+iadd",
               .step_bound = "6 ceil(log_k n)-5, n>1",
               .work_bound = "O(n log n)",
               .min_word_bits = "fits R, ceil(n/k) - 1",
               .shape = input_shape::values,
               .run = scan_runner([](machine& m, const auto& x) { return iterated_addition_scan(m, x); }),
               .predicted = by_size(&iterated_addition_scan_predicted_cost),
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

}  // namespace mmv
