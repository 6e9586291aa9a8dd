// Integer matrix product via segmented sums: exact against a triple loop for n = 1..12 on fresh
// random matrices with negative entries, B = 32 and 64, several s; width_error when the
// entries are too wide; exact ledger counts and the O(log_s B + log_s n) step bound.
#include "catch.hpp"
#include "test_seed.hpp"

#include "cost_check.hpp"

#include "mmvram/algorithms/applications.hpp"
#include "mmvram/algorithms/scan.hpp"

#include <cstdio>
#include <random>
#include <vector>

using mmv::word;

using mmv::test::fresh_seed;

namespace {

mmv::machine make(int s, int bits, bool trace = false) {
  mmv::machine_config c;
  c.s = s;
  c.word_bits = bits;
  c.record_dag = false;
  c.record_trace = trace;
  return mmv::machine(c);
}

std::vector<word> triple_loop(const std::vector<word>& a, const std::vector<word>& b, std::int64_t n) {
  std::vector<word> c(static_cast<std::size_t>(n * n), 0);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t k = 0; k < n; ++k) c[i * n + j] += a[i * n + k] * b[k * n + j];
  return c;
}

std::vector<word> random_matrix(std::mt19937_64& g, std::int64_t n, word amp) {
  std::vector<word> v;
  for (std::int64_t i = 0; i < n * n; ++i) v.push_back(std::uniform_int_distribution<word>(-amp, amp)(g));
  return v;
}

}  // namespace

TEST_CASE("matrix product matches the triple loop", "[matrix-product]") {
  const auto seed = fresh_seed();
  std::mt19937_64 g(seed);
  const int s = GENERATE(2, 3, 4, 8, 16);
  CAPTURE(seed, s);
  for (std::int64_t n = 1; n <= 12; ++n) {
    if (n > 6 && n % 3 != s % 3) continue;  // every n for small sizes, a third of the large ones per s
    for (const auto& [bits, amp] : {std::pair<int, word>{32, 50}, std::pair<int, word>{64, word{1} << 20}}) {
      CAPTURE(n, bits);
      const auto a = random_matrix(g, n, amp), b = random_matrix(g, n, amp);
      auto m = make(s, bits);
      CHECK(mmv::matrix_product(m, m.load(a), m.load(b), n) == triple_loop(a, b, n));
    }
  }
}

TEST_CASE("matrix product: widths and bad inputs", "[matrix-product]") {
  auto m = make(4, 16);
  // 200·200 does not fit 16 bits: the element-wise product raises.
  const std::vector<word> big{200, 0, 0, 200};
  CHECK_THROWS_AS(mmv::matrix_product(m, m.load(big), m.load(big), 2), mmv::width_error);
  // Each product fits, but SCD's speculative prefix of all n^3 products does not.
  // C = (16384, 0; 16384, 0) fits, but the running sum over C_00's and C_10's products is 2^15.
  const std::vector<word> column{128, 0, 128, 0}, corner{128, 0, 0, 0};
  CHECK_THROWS_AS(mmv::matrix_product(m, m.load(column), m.load(corner), 2), mmv::width_error);
  const std::vector<word> fits{100, -100, 50, 25};
  CHECK(mmv::matrix_product(m, m.load(fits), m.load(fits), 2) == triple_loop(fits, fits, 2));
  CHECK_THROWS_AS(mmv::matrix_product(m, m.load(fits), m.load(std::vector<word>{1, 2, 3}), 2), mmv::model_error);
  CHECK_THROWS_AS(mmv::matrix_product(m, m.load(fits), m.load(fits), 3), mmv::model_error);
  CHECK_THROWS_AS(mmv::matrix_product(m, m.load(fits), m.load(fits), std::int64_t{1} << 32), mmv::model_error);
  CHECK_THROWS_AS(mmv::matrix_product_predicted_cost(std::int64_t{1} << 21, 4, 32), mmv::model_error);
  CHECK(mmv::matrix_product(m, mmv::word_vec{}, mmv::word_vec{}, 0).empty());
}

TEST_CASE("matrix product: exact ledger counts and the step bound", "[matrix-product][cost]") {
  const int s = GENERATE(2, 3, 4, 8, 16, 128);
  for (const int bits : {32, 64}) {
    for (const std::int64_t n : {0, 1, 2, 3, 5, 8}) {
      CAPTURE(s, bits, n);
      std::mt19937_64 g(static_cast<std::uint64_t>(n * 100 + s + bits));
      const auto a = random_matrix(g, n, 9), b = random_matrix(g, n, 9);
      auto m = make(s, bits);
      mmv::matrix_product(m, m.load(a), m.load(b), n);
      const auto p = mmv::matrix_product_predicted_cost(n, s, bits);
      mmv::test::check_ledger_equals(m, p);
      if (n == 0) continue;
      // Steps = 11 + elementwise_product(n^3, B) + SCD(n^3): O(log_s B) + O(log_s n).
      const auto ep = mmv::elementwise_product_predicted_cost(n * n * n, s, bits);
      const auto scan = mmv::matmul_scan_predicted_cost(n * n * n, s);
      CHECK(p.steps() == 11 + ep.steps() + 2 * scan.steps() + 7);
    }
  }
}

TEST_CASE("worked example (docs/algorithms/matrix_product.md)", "[matrix-product][example]") {
  // A and B take the seeds' example values (2, 2, 3, 3) and (1, 3, 1, 2), with signs.
  const std::vector<word> a{2, -2, 3, 3}, b{1, 3, -1, 2};
  auto m = make(4, 16, true);
  const auto c = mmv::matrix_product(m, m.load(a), m.load(b), 2);
  std::printf("matrix product worked example, n = 2, s = 4, B = 16 (first 16 values, product levels omitted):\n");
  for (const auto& r : m.costs().records())
    if (r.where != mmv::unit::scalar && r.region.find("elementwise-product/") == std::string::npos &&
        r.region.find("matmul-scan") == std::string::npos)
      std::printf("  %-34s %-14s %s\n", r.region.c_str(), r.op.c_str(), r.preview.c_str());
  CHECK(c == triple_loop(a, b, 2));
  CHECK(c == std::vector<word>{4, 2, 0, 15});
}
