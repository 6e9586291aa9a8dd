// CSR SpMV = GATHER → MULT → SCD: float and integer versions against a plain CSR loop and
// Eigen::SparseMatrix on fresh random matrices with empty rows (first, last, runs, all), on
// BigBird patterns; CSR validation; the Matrix Market reader (good and malformed files); the
// BigBird generator's structure; exact ledger counts.
#include "catch.hpp"
#include "test_seed.hpp"

#include "cost_check.hpp"

#include "mmvram/algorithms/applications.hpp"
#include "mmvram/harness/sparse_inputs.hpp"

#include <Eigen/Sparse>

#include <cmath>
#include <cstdio>
#include <random>
#include <sstream>
#include <vector>

using mmv::real;
using mmv::word;

using mmv::test::fresh_seed;

namespace {

mmv::machine make(int s, mmv::number_format format, int bits = 32, bool trace = false) {
  mmv::machine_config c;
  c.s = s;
  c.word_bits = bits;
  c.format = format;
  c.record_dag = false;
  c.record_trace = trace;
  return mmv::machine(c);
}

// A random CSR matrix: each row empty with probability p_empty, else 1..max_row entries at
// random columns (duplicates allowed); integer values in [-9, 9] so integer SpMV can use them.
mmv::csr_matrix random_csr(std::mt19937_64& g, std::int64_t rows, std::int64_t cols, double p_empty, int max_row) {
  mmv::csr_matrix a;
  a.rows = rows;
  a.cols = cols;
  a.row_ptr.push_back(0);
  for (std::int64_t r = 0; r < rows; ++r) {
    const int len = std::bernoulli_distribution(p_empty)(g) ? 0 : std::uniform_int_distribution<int>(1, max_row)(g);
    for (int e = 0; e < len; ++e) {
      a.col_idx.push_back(std::uniform_int_distribution<std::int64_t>(0, cols - 1)(g));
      a.values.push_back(std::uniform_int_distribution<int>(-9, 9)(g));
    }
    a.row_ptr.push_back(a.nonzeros());
  }
  return a;
}

template <class T>
std::vector<T> csr_loop(const mmv::csr_matrix& a, const std::vector<T>& x) {
  std::vector<T> y(static_cast<std::size_t>(a.rows), T{0});
  for (std::int64_t r = 0; r < a.rows; ++r)
    for (std::int64_t e = a.row_ptr[r]; e < a.row_ptr[r + 1]; ++e) y[r] += static_cast<T>(a.values[e]) * x[a.col_idx[e]];
  return y;
}

std::vector<double> eigen_spmv(const mmv::csr_matrix& a, const std::vector<double>& x) {
  std::vector<Eigen::Triplet<double>> t;
  for (std::int64_t r = 0; r < a.rows; ++r)
    for (std::int64_t e = a.row_ptr[r]; e < a.row_ptr[r + 1]; ++e) t.emplace_back(r, a.col_idx[e], a.values[e]);
  Eigen::SparseMatrix<double, Eigen::RowMajor> m(a.rows, a.cols);
  m.setFromTriplets(t.begin(), t.end());  // sums duplicates, as SpMV does
  const Eigen::VectorXd y = m * Eigen::Map<const Eigen::VectorXd>(x.data(), static_cast<Eigen::Index>(x.size()));
  return std::vector<double>(y.data(), y.data() + y.size());
}

std::int64_t nonempty_rows(const mmv::csr_matrix& a) {
  std::int64_t k = 0;
  for (std::int64_t r = 0; r < a.rows; ++r) k += a.row_ptr[r + 1] > a.row_ptr[r];
  return k;
}

// SCD subtracts prefix sums of all products, so float errors scale with Σ|a_e x_c|.
double total_magnitude(const mmv::csr_matrix& a, const std::vector<double>& x) {
  double t = 0;
  for (std::size_t e = 0; e < a.col_idx.size(); ++e) t += std::abs(a.values[e] * x[a.col_idx[e]]);
  return t;
}

void check_float(const mmv::csr_matrix& a, int s, mmv::number_format format, std::mt19937_64& g) {
  std::vector<double> x;
  std::uniform_real_distribution<double> u(-1, 1);
  for (std::int64_t c = 0; c < a.cols; ++c) x.push_back(u(g));
  auto m = make(s, format);
  const auto xv = m.load(x);
  const auto y = m.read(mmv::spmv_csr(m, a, xv));
  const auto xr = m.read(xv);  // x as the machine rounded it
  const auto loop = csr_loop(a, xr), eig = eigen_spmv(a, xr);
  const double eps = format == mmv::number_format::float64 ? 0x1p-52 : 0x1p-23;
  const double tol = 64 * eps * (1 + total_magnitude(a, xr));
  REQUIRE(y.size() == loop.size());
  for (std::size_t r = 0; r < y.size(); ++r) {
    CAPTURE(r);
    CHECK(std::abs(y[r] - loop[r]) <= tol);
    CHECK(std::abs(y[r] - eig[r]) <= tol);
    if (a.row_ptr[r] == a.row_ptr[r + 1]) CHECK(y[r] == 0.0);
  }
  const auto p = mmv::spmv_csr_predicted_cost(a.rows, a.nonzeros(), nonempty_rows(a), s);
  mmv::test::check_ledger_equals(m, p);
}

void check_integer(const mmv::csr_matrix& a, int s, std::mt19937_64& g) {
  std::vector<word> x;
  for (std::int64_t c = 0; c < a.cols; ++c) x.push_back(std::uniform_int_distribution<word>(-100, 100)(g));
  auto m = make(s, mmv::number_format::integer);
  const auto y = m.read(mmv::spmv_csr(m, a, m.load(x)));
  CHECK(y == csr_loop(a, x));
  const auto p = mmv::spmv_csr_predicted_cost(a.rows, a.nonzeros(), nonempty_rows(a), s, 32);
  mmv::test::check_ledger_equals(m, p);
}

}  // namespace

TEST_CASE("spmv on random CSR matrices with empty rows", "[spmv]") {
  const auto seed = fresh_seed();
  std::mt19937_64 g(seed);
  const int s = GENERATE(2, 3, 4, 8, 16, 128);
  CAPTURE(seed, s);
  for (const double p_empty : {0.0, 0.3, 0.9}) {
    const std::int64_t rows = std::uniform_int_distribution<std::int64_t>(1, 60)(g);
    const std::int64_t cols = std::uniform_int_distribution<std::int64_t>(1, 60)(g);
    const auto a = random_csr(g, rows, cols, p_empty, 12);
    CAPTURE(p_empty, rows, cols, a.nonzeros());
    check_float(a, s, mmv::number_format::float64, g);
    check_float(a, s, mmv::number_format::float32, g);
    check_integer(a, s, g);
  }
}

TEST_CASE("spmv: empty-row layouts", "[spmv]") {
  const auto seed = fresh_seed();
  std::mt19937_64 g(seed);
  const int s = GENERATE(2, 4);
  CAPTURE(seed, s);
  mmv::csr_matrix a;
  a.rows = 7;
  a.cols = 3;
  // rows 0, 2, 3 and 6 empty: an empty first row, a run of two, an empty last row
  a.row_ptr = {0, 0, 2, 2, 2, 5, 6, 6};
  a.col_idx = {0, 2, 1, 1, 0, 2};
  a.values = {1, 2, 3, 4, 5, 6};
  check_float(a, s, mmv::number_format::float64, g);
  check_integer(a, s, g);
  a.row_ptr = {0, 0, 0, 0, 0, 0, 0, 0};  // all rows empty: y = 0
  a.col_idx.clear();
  a.values.clear();
  check_float(a, s, mmv::number_format::float64, g);
  check_integer(a, s, g);
  a.rows = 0;  // no rows at all
  a.row_ptr = {0};
  check_float(a, s, mmv::number_format::float64, g);
  a.rows = 1;  // one row holding everything
  a.row_ptr = {0, 4};
  a.col_idx = {2, 2, 0, 1};
  a.values = {1, -1, 3, 7};
  check_float(a, s, mmv::number_format::float64, g);
  check_integer(a, s, g);
}

TEST_CASE("spmv on BigBird patterns, against Eigen", "[spmv][bigbird]") {
  const auto seed = fresh_seed();
  std::mt19937_64 g(seed);
  CAPTURE(seed);
  for (const std::int64_t block : {1, 2, 4}) {
    const auto a = mmv::bigbird_matrix(32 * block, block, 2, 1, 2, seed);
    CAPTURE(block);
    mmv::validate_csr(a);
    check_float(a, 16, mmv::number_format::float64, g);
    check_float(a, 16, mmv::number_format::float32, g);
  }
}

TEST_CASE("spmv: CSR validation and bad inputs", "[spmv]") {
  auto m = make(4, mmv::number_format::float64);
  mmv::csr_matrix good;
  good.rows = 2;
  good.cols = 2;
  good.row_ptr = {0, 1, 2};
  good.col_idx = {0, 1};
  good.values = {1, 2};
  const auto x = m.load(std::vector<real>{1, 1});
  CHECK_NOTHROW(mmv::spmv_csr(m, good, x));
  auto bad = good;
  bad.row_ptr = {0, 2};
  CHECK_THROWS_AS(mmv::spmv_csr(m, bad, x), mmv::model_error);  // too few row pointers
  bad = good;
  bad.row_ptr = {0, 2, 1};
  CHECK_THROWS_AS(mmv::spmv_csr(m, bad, x), mmv::model_error);  // decreasing
  bad = good;
  bad.row_ptr = {1, 1, 2};
  CHECK_THROWS_AS(mmv::spmv_csr(m, bad, x), mmv::model_error);  // not starting at 0
  bad = good;
  bad.col_idx = {0, 2};
  CHECK_THROWS_AS(mmv::spmv_csr(m, bad, x), mmv::model_error);  // column out of range
  bad = good;
  bad.values = {1};
  CHECK_THROWS_AS(mmv::spmv_csr(m, bad, x), mmv::model_error);  // values missing
  CHECK_THROWS_AS(mmv::spmv_csr(m, good, m.load(std::vector<real>{1, 1, 1})), mmv::model_error);  // x too long
  auto mi = make(4, mmv::number_format::integer);
  bad = good;
  bad.values = {1.5, 2};
  CHECK_THROWS_AS(mmv::spmv_csr(mi, bad, mi.load(std::vector<word>{1, 1})), mmv::model_error);  // not an integer
}

TEST_CASE("worked example (docs/algorithms/spmv.md)", "[spmv][example]") {
  // The seeds' SCD example as a matrix: rows of lengths 2, 0 (empty), 3, 3 holding the values
  // (2, 2 | | 3, 3, 1 | 3, 1, 2) in columns 0..3, times x = (1, 1, 1, 1).
  mmv::csr_matrix a;
  a.rows = 4;
  a.cols = 4;
  a.row_ptr = {0, 2, 2, 5, 8};
  a.col_idx = {0, 1, 0, 1, 2, 1, 2, 3};
  a.values = {2, 2, 3, 3, 1, 3, 1, 2};
  auto m = make(4, mmv::number_format::integer, 32, true);
  const auto y = m.read(mmv::spmv_csr(m, a, m.load(std::vector<word>{1, 1, 1, 1})));
  std::printf("spmv worked example, s = 4, integer (first 16 values of each instruction):\n");
  for (const auto& r : m.costs().records())
    if (r.where != mmv::unit::scalar && r.region.find("elementwise-product") == std::string::npos &&
        r.region.find("matmul-scan") == std::string::npos)
      std::printf("  %-28s %-14s %s\n", r.region.c_str(), r.op.c_str(), r.preview.c_str());
  CHECK(y == std::vector<word>{4, 0, 7, 6});
}
