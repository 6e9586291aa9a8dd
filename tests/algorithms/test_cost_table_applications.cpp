// The second half of docs/algorithms/cost_table.md: the decayed scans, state passing (G = 2^10
// and 2^12 chunks of 64 lanes), SpMV and the integer products on n = 2^10, 2^12, ..., 2^20 (the element-wise product, O(n·B·s) work, to 2^16; the
// matrix product on sides 8..64, i.e. 2^9..2^18 products) with s in {2, 4, 16}, DAG recording
// off; recorded steps, depth and work printed beside the prediction and asserted equal, and the
// results checked against plain loops.
#include "catch.hpp"
#include "test_seed.hpp"

#include "cost_check.hpp"

#include "mmvram/algorithms/applications.hpp"
#include "mmvram/algorithms/decayed_scan.hpp"
#include "mmvram/algorithms/state_passing.hpp"
#include "mmvram/harness/reference.hpp"

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>
#include <vector>

using mmv::real;
using mmv::word;

using mmv::test::fresh_seed;

namespace {

mmv::machine make(int s, mmv::number_format format) {
  mmv::machine_config c;
  c.s = s;
  c.format = format;
  c.word_bits = format == mmv::number_format::integer ? 32 : 64;
  c.record_dag = false;
  return mmv::machine(c);
}

// A CSR matrix with n entries over n/8 rows (some empty), integer values in [-3, 3].
mmv::csr_matrix random_csr(std::mt19937_64& g, std::int64_t nnz) {
  mmv::csr_matrix a;
  a.rows = a.cols = std::max<std::int64_t>(1, nnz / 8);
  std::vector<std::int64_t> count(static_cast<std::size_t>(a.rows), 0);
  for (std::int64_t e = 0; e < nnz; ++e) ++count[std::uniform_int_distribution<std::int64_t>(0, a.rows - 1)(g)];
  a.row_ptr.push_back(0);
  for (std::int64_t r = 0; r < a.rows; ++r) {
    for (std::int64_t e = 0; e < count[r]; ++e) {
      a.col_idx.push_back(std::uniform_int_distribution<std::int64_t>(0, a.cols - 1)(g));
      a.values.push_back(static_cast<double>(std::uniform_int_distribution<int>(-3, 3)(g)));
    }
    a.row_ptr.push_back(static_cast<std::int64_t>(a.col_idx.size()));
  }
  return a;
}

std::int64_t nonempty_rows(const mmv::csr_matrix& a) {
  std::int64_t k = 0;
  for (std::int64_t r = 0; r < a.rows; ++r) k += a.row_ptr[r + 1] > a.row_ptr[r] ? 1 : 0;
  return k;
}

}  // namespace

TEST_CASE("cost table: applications' recorded steps, depth and work equal the formulas", "[cost-table]") {
  const auto seed = fresh_seed();
  std::mt19937_64 g(seed);
  CAPTURE(seed);
  mmv::test::print_cost_table_header("size");
  for (int s : {2, 4, 16}) {
    for (int e = 10; e <= 20; e += 2) {
      const std::int64_t n = std::int64_t{1} << e;
      const std::string size = "n = 2^" + std::to_string(e);
      std::vector<real> a(n), b(n);
      std::vector<word> f(n);
      for (std::int64_t i = 0; i < n; ++i) {
        a[i] = std::uniform_real_distribution<real>(0.99, 1.0)(g);  // decays: -sum log a stays < 709 only for short runs
        b[i] = std::uniform_real_distribution<real>(-1.0, 1.0)(g);
        f[i] = std::bernoulli_distribution(1.0 / 64)(g) ? 1 : 0;
      }
      const std::int64_t segments = 1 + std::count(f.begin() + 1, f.end(), word{1});
      {
        auto m = make(s, mmv::number_format::float64);
        const auto h = m.read(mmv::decayed_scan_stable(m, m.load(a), m.load(b), m.load(f)));
        const auto want = mmv::reference::decayed_scan(a, b, f);
        for (std::int64_t i = 0; i < n; i += 97) CHECK(std::abs(h[i] - want[i]) <= 1e-9);
        mmv::test::check_cost_row("decayed_stable", std::to_string(s), size, m, mmv::decayed_scan_stable_predicted_cost(n, s));
      }
      {  // costs do not depend on the values: its numerical breakdown is test_decayed_scan's subject
        auto m = make(s, mmv::number_format::float64);
        mmv::decayed_scan_unstable(m, m.load(a), m.load(b), m.load(f));
        mmv::test::check_cost_row("decayed_unstable", std::to_string(s), size, m, mmv::decayed_scan_unstable_predicted_cost(n, s, segments));
      }
      if (e <= 12) {  // G = n chunks of 2 x 4 x 8 lanes, one log-decay per row; lane 0 checked
        const mmv::state_shape sh{2, 4, 8, false};
        const std::int64_t L = sh.lanes(), D = sh.decay_rows();
        std::vector<real> u(n * L), l(n * D), a0(n), u0(n);
        for (auto& v : u) v = std::uniform_real_distribution<real>(-1.0, 1.0)(g);
        for (auto& v : l) v = std::uniform_real_distribution<real>(-1.0, 0.0)(g);
        for (std::int64_t j = 0; j < n; ++j) a0[j] = std::exp(l[j * D]), u0[j] = u[j * L];
        auto m = make(s, mmv::number_format::float64);
        const auto h = m.read(mmv::state_passing_scan(m, m.load(u), m.load(l), m.load(f), sh));
        const auto want = mmv::reference::decayed_scan(a0, u0, f);
        for (std::int64_t j = 0; j < n; j += 97) CHECK(std::abs(h[j * L] - want[j]) <= 1e-9);
        mmv::test::check_cost_row("state_passing (2x4x8)", std::to_string(s), "G = 2^" + std::to_string(e), m,
                                  mmv::state_passing_predicted_cost(n, 2, 4, 8, false, s));
      }
      {
        const auto csr = random_csr(g, n);
        std::vector<word> x(static_cast<std::size_t>(csr.cols));
        for (auto& v : x) v = std::uniform_int_distribution<word>(-3, 3)(g);
        auto m = make(s, mmv::number_format::integer);
        const auto y = m.read(mmv::spmv_csr(m, csr, m.load(x)));
        for (std::int64_t r = 0; r < csr.rows; r += 13) {
          word want = 0;
          for (auto k = csr.row_ptr[r]; k < csr.row_ptr[r + 1]; ++k) want += static_cast<word>(csr.values[k]) * x[csr.col_idx[k]];
          CHECK(y[r] == want);
        }
        mmv::test::check_cost_row("spmv (integer)", std::to_string(s), "nnz = 2^" + std::to_string(e), m,
                  mmv::spmv_csr_predicted_cost(csr.rows, n, nonempty_rows(csr), s, 32));
      }
      if (e <= 16) {
        std::vector<word> x(n), y(n);
        for (std::int64_t i = 0; i < n; ++i) {
          x[i] = std::uniform_int_distribution<word>(-30000, 30000)(g);
          y[i] = std::uniform_int_distribution<word>(-30000, 30000)(g);
        }
        auto m = make(s, mmv::number_format::integer);
        const auto p = m.read(mmv::elementwise_product(m, m.load(x), m.load(y)));
        for (std::int64_t i = 0; i < n; ++i) CHECK(p[i] == x[i] * y[i]);
        mmv::test::check_cost_row("elementwise_product", std::to_string(s), size, m, mmv::elementwise_product_predicted_cost(n, s, 32));
      }
    }
    for (const std::int64_t side : {8, 16, 32, 64}) {
      std::vector<word> x(side * side), y(side * side);
      for (auto& v : x) v = std::uniform_int_distribution<word>(-3, 3)(g);
      for (auto& v : y) v = std::uniform_int_distribution<word>(-3, 3)(g);
      auto m = make(s, mmv::number_format::integer);
      const auto c = mmv::matrix_product(m, m.load(x), m.load(y), side);
      for (std::int64_t i = 0; i < side; i += 7) {
        word want = 0;
        for (std::int64_t k = 0; k < side; ++k) want += x[i * side + k] * y[k * side + i];
        CHECK(c[i * side + i] == want);
      }
      mmv::test::check_cost_row("matrix_product", std::to_string(s), "side " + std::to_string(side), m, mmv::matrix_product_predicted_cost(side, s, 32));
    }
  }
  std::cout << std::flush;
}
