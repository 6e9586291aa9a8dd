// The SpMV matrix generators of mmvram/harness/sparse_inputs.hpp: Pareto row lengths (ranges,
// mean, determinism), matrices of given row lengths and banded matrices (shape, columns, values).
#include "catch.hpp"
#include "test_seed.hpp"

#include "mmvram/harness/sparse_inputs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

using mmv::test::fresh_seed;

TEST_CASE("pareto_row_lengths: range, mean, determinism", "[spmv][generators]") {
  const auto seed = fresh_seed();
  CAPTURE(seed);
  const double mean = 32, alpha = 2.5;  // finite variance: the sample mean settles
  const std::int64_t rows = 200000, cap = 1 << 20;
  mmv::inputs::stream d(seed), again(seed);
  const auto len = mmv::pareto_row_lengths(rows, mean, alpha, cap, d);
  CHECK(mmv::pareto_row_lengths(rows, mean, alpha, cap, again) == len);
  REQUIRE(static_cast<std::int64_t>(len.size()) == rows);
  const double x_min = mean * (alpha - 1) / alpha;
  double sum = 0;
  for (const auto l : len) {
    CHECK(l >= static_cast<std::int64_t>(x_min));  // floor(x_min / u^(1/alpha)) >= floor(x_min)
    CHECK(l <= cap);
    sum += double(l);
  }
  // Flooring takes at most 1 off each length: the mean lies in (mean - 1.x, mean + noise).
  CHECK(sum / double(rows) > mean - 1.5);
  CHECK(sum / double(rows) < mean + 1.0);
  // Heavy tail: P(X > 10 x_min) = 10^-alpha, about 632 of 200000 rows.
  const auto tail = std::count_if(len.begin(), len.end(), [&](std::int64_t l) { return double(l) >= 10 * x_min; });
  CHECK(tail > 400);
  CHECK(tail < 900);
  mmv::inputs::stream c(seed);
  const auto capped = mmv::pareto_row_lengths(1000, 1e6, 1.1, 7, c);
  CHECK(*std::max_element(capped.begin(), capped.end()) == 7);
  CHECK_THROWS_AS(mmv::pareto_row_lengths(10, 32, 1.0, 10, c), mmv::model_error);
  CHECK_THROWS_AS(mmv::pareto_row_lengths(10, 0, 2.0, 10, c), mmv::model_error);
}

TEST_CASE("matrix_of_row_lengths and power_law_matrix: shape, columns, values", "[spmv][generators]") {
  const auto seed = fresh_seed();
  CAPTURE(seed);
  const std::vector<std::int64_t> lengths{0, 3, 0, 0, 50, 1, 0};
  mmv::inputs::stream d(seed);
  const auto a = mmv::matrix_of_row_lengths(lengths, 9, d);
  mmv::validate_csr(a);
  CHECK(a.rows == 7);
  CHECK(a.cols == 9);
  for (std::int64_t r = 0; r < a.rows; ++r) {
    CHECK(a.row_ptr[r + 1] - a.row_ptr[r] == lengths[r]);
    for (std::int64_t e = a.row_ptr[r]; e < a.row_ptr[r + 1]; ++e) {
      if (e > a.row_ptr[r]) CHECK(a.col_idx[e] >= a.col_idx[e - 1]);  // sorted (duplicates allowed)
      CHECK(a.values[e] >= -1.0);
      CHECK(a.values[e] < 1.0);
    }
  }
  mmv::inputs::stream e(seed);
  CHECK_THROWS_AS(mmv::matrix_of_row_lengths({1}, 0, e), mmv::model_error);
  CHECK_THROWS_AS(mmv::matrix_of_row_lengths({-1}, 4, e), mmv::model_error);

  const auto p = mmv::power_law_matrix(5000, 300, 20, 1.5, seed);
  mmv::validate_csr(p);
  CHECK(p.rows == 5000);
  CHECK(p.cols == 300);
  std::int64_t longest = 0;
  for (std::int64_t r = 0; r < p.rows; ++r) longest = std::max(longest, p.row_ptr[r + 1] - p.row_ptr[r]);
  CHECK(longest <= 300);
  CHECK(longest > 100);  // alpha 1.5: P(X > 100) = (6.67/100)^1.5 per row, ~86 of 5000 rows
  const auto q = mmv::power_law_matrix(5000, 300, 20, 1.5, seed);
  CHECK(q.row_ptr == p.row_ptr);
  CHECK(q.col_idx == p.col_idx);
  CHECK(q.values == p.values);
  CHECK(mmv::power_law_matrix(5000, 300, 20, 1.5, seed + 1).col_idx != p.col_idx);
}

TEST_CASE("banded_matrix: band and edges", "[spmv][generators]") {
  const auto seed = fresh_seed();
  CAPTURE(seed);
  for (const std::int64_t n : {0, 1, 5, 40})
    for (const std::int64_t h : {0, 1, 3, 100}) {
      const auto a = mmv::banded_matrix(n, h, seed);
      mmv::validate_csr(a);
      CHECK(a.rows == n);
      CHECK(a.cols == n);
      for (std::int64_t i = 0; i < n; ++i) {
        const std::int64_t lo = std::max<std::int64_t>(0, i - h), hi = std::min(n - 1, i + h);
        REQUIRE(a.row_ptr[i + 1] - a.row_ptr[i] == hi - lo + 1);
        for (std::int64_t e = a.row_ptr[i]; e < a.row_ptr[i + 1]; ++e) {
          CHECK(a.col_idx[e] == lo + (e - a.row_ptr[i]));
          CHECK(std::abs(a.values[e]) <= 1.0);
        }
      }
    }
  CHECK(mmv::banded_matrix(30, 2, seed).values == mmv::banded_matrix(30, 2, seed).values);
  CHECK_THROWS_AS(mmv::banded_matrix(-1, 2, seed), mmv::model_error);
}
