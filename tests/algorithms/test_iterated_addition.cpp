// The k-ary iterated-addition scans (VCU only): against the sequential references on fresh random
// inputs (seed printed; MMV_TEST_SEED fixes it) and edge cases (empty, n = 1, all heads, one giant
// segment, n not a multiple of k), integer and float64; exact ledger costs against the closed forms
// for many n; the machine's refusal when iterated addition is off; word widths at the limit.
#include "catch.hpp"
#include "cost_check.hpp"
#include "test_seed.hpp"

#include "mmvram/algorithms/iterated_addition.hpp"
#include "mmvram/harness/reference.hpp"

#include <cmath>
#include <random>
#include <string>
#include <vector>

using mmv::real;
using mmv::word;
using mmv::test::fresh_seed;

namespace {

// A machine that allows the block the scans use on n elements.
mmv::machine make_machine(std::int64_t n, int bits = 32, mmv::number_format f = mmv::number_format::integer) {
  mmv::machine_config c;
  c.s = 4;
  c.word_bits = bits;
  c.format = f;
  c.iterated_addition_limit = mmv::iterated_addition_block(n);
  return mmv::machine(c);
}

// Named flag patterns for length n, f[0] random (it must not matter).
std::vector<std::pair<std::string, std::vector<word>>> flag_patterns(std::mt19937_64& g, std::int64_t n) {
  const auto un = static_cast<std::size_t>(n);
  std::vector<std::pair<std::string, std::vector<word>>> out{{"all heads", std::vector<word>(un, 1)},
                                                             {"one giant segment", std::vector<word>(un, 0)}};
  for (double p : {0.03, 0.3, 0.9}) {
    std::vector<word> f(un);
    for (auto& v : f) v = std::bernoulli_distribution(p)(g) ? 1 : 0;
    out.push_back({"random p=" + std::to_string(p), f});
  }
  return out;
}

// Lengths around powers of the block k and not multiples of it.
const std::vector<std::int64_t> lengths{0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 64, 65, 100, 257, 1000, 1025, 4097};

}  // namespace

TEST_CASE("iterated-addition scans match the references on integers", "[iterated]") {
  const auto seed = fresh_seed();
  std::mt19937_64 g(seed);
  CAPTURE(seed);
  for (auto n : lengths) {
    std::vector<word> x(static_cast<std::size_t>(n));
    for (auto& v : x) v = std::uniform_int_distribution<word>(-1000, 1000)(g);
    CAPTURE(n);
    auto m = make_machine(n);
    CHECK(m.read(mmv::iterated_addition_scan(m, m.load(x))) == mmv::reference::inclusive_scan(x));
    mmv::test::check_ledger_equals(m, mmv::iterated_addition_scan_predicted_cost(n, 4));
    for (const auto& [pattern, f] : flag_patterns(g, n)) {
      CAPTURE(pattern);
      auto ms = make_machine(n);
      CHECK(ms.read(mmv::iterated_addition_segmented_scan(ms, ms.load(x), ms.load(f))) ==
            mmv::reference::segmented_scan(x, f));
      mmv::test::check_ledger_equals(ms, mmv::iterated_addition_segmented_scan_predicted_cost(n, 4));
    }
  }
}

TEST_CASE("iterated-addition scans in float64 mode", "[iterated]") {
  const auto seed = fresh_seed();
  std::mt19937_64 g(seed);
  CAPTURE(seed);
  for (auto n : lengths) {
    std::vector<real> x(static_cast<std::size_t>(n));
    for (auto& v : x) v = std::uniform_real_distribution<real>(-1, 1)(g);
    const double tol = 1e-12 * static_cast<double>(n + 1);
    for (const auto& [pattern, f] : flag_patterns(g, n)) {
      CAPTURE(n, pattern);
      auto m = make_machine(n, 64, mmv::number_format::float64);
      const auto out = m.read(mmv::iterated_addition_segmented_scan(m, m.load(x), m.load(f)));
      const auto ref = mmv::reference::segmented_scan(x, f);
      REQUIRE(out.size() == ref.size());
      for (std::size_t i = 0; i < out.size(); ++i) CHECK(std::abs(out[i] - ref[i]) <= tol);
    }
  }
}

TEST_CASE("iterated-addition ledgers equal the closed forms for many n", "[iterated][cost]") {
  for (std::int64_t n = 0; n <= 600; ++n) {
    CAPTURE(n);
    auto m = make_machine(n);
    mmv::iterated_addition_scan(m, m.load(std::vector<word>(static_cast<std::size_t>(n), 1)));
    const auto p = mmv::iterated_addition_scan_predicted_cost(n, 4);
    mmv::test::check_ledger_equals(m, p);
    auto ms = make_machine(n);
    std::vector<word> f(static_cast<std::size_t>(n), 0);
    for (std::size_t i = 0; i < f.size(); i += 7) f[i] = 1;
    mmv::iterated_addition_segmented_scan(ms, ms.load(std::vector<word>(f.size(), 1)), ms.load(f));
    const auto q = mmv::iterated_addition_segmented_scan_predicted_cost(n, 4);
    mmv::test::check_ledger_equals(ms, q);
    // The stated step and depth formulas: L = ceil(log_k n) levels.
    const std::int64_t k = mmv::iterated_addition_block(n);
    const std::int64_t levels = n <= 1 ? 0 : mmv::ceil_log(n, k);
    CHECK(p.vcu_steps == (n <= 1 ? 0 : 6 * (levels - 1) + 1));
    CHECK(p.depth == (n <= 1 ? 0 : 5 * (levels - 1) + 1));
    CHECK(q.vcu_steps == (n == 0 ? 0 : n == 1 ? 1 : 11 * (levels - 1) + 1));
    CHECK(q.depth == (n == 0 ? 0 : n == 1 ? 1 : 6 * (levels - 1) + 1));
  }
  // k = max(2, ceil(log2 n)): 2^20 takes k = 20 and 5 levels; 2^40 takes k = 40 and 8 levels.
  CHECK(mmv::iterated_addition_block(1 << 20) == 20);
  CHECK(mmv::iterated_addition_scan_predicted_cost(std::int64_t{1} << 20, 2).vcu_steps == 25);
  CHECK(mmv::iterated_addition_segmented_scan_predicted_cost(std::int64_t{1} << 40, 2).vcu_steps == 78);
}

TEST_CASE("iterated-addition scans need the machine's iterated addition and valid flags", "[iterated][errors]") {
  mmv::machine_config c;
  c.s = 4;
  mmv::machine off(c);
  const auto x = off.load(std::vector<word>(9, 3));
  CHECK_THROWS_AS(mmv::iterated_addition_scan(off, x), mmv::model_error);
  CHECK_THROWS_AS(mmv::iterated_addition_segmented_scan(off, x, off.load(std::vector<word>(9, 0))), mmv::model_error);
  auto m = make_machine(9);
  const auto y = m.load(std::vector<word>(9, 3));
  std::vector<word> bad(9, 0);
  bad.back() = 2;
  CHECK_THROWS_AS(mmv::iterated_addition_segmented_scan(m, y, m.load(bad)), mmv::model_error);
  CHECK_THROWS_AS(mmv::iterated_addition_segmented_scan(m, y, m.load(std::vector<word>(8, 0))), mmv::model_error);
}

TEST_CASE("iterated-addition scans and the word width", "[iterated][width]") {
  // min word bits 1 + ceil(log2(n M + 1)): n M = 2^15 - 1 fits B = 16, one more does not.
  const std::int64_t n = 7;
  auto fits = make_machine(n, 16);
  std::vector<word> x(n, 4681);  // 7 * 4681 = 32767
  CHECK(fits.read(mmv::iterated_addition_scan(fits, fits.load(x))) == mmv::reference::inclusive_scan(x));
  x[3] += 1;
  auto over = make_machine(n, 16);
  CHECK_THROWS_AS(mmv::iterated_addition_scan(over, over.load(x)), mmv::width_error);
  // Segmented: 1 + ceil(log2(L M + 1)) with L the longest segment. Two segments of 50 whose
  // totals are exactly 2^15 - 1 fit B = 16 (no sum crosses a head); one more unit does not.
  const std::int64_t len = 100;
  std::vector<word> v(len, 655), f(len, 0);
  f[50] = 1;
  v[49] = v[99] = 32767 - 49 * 655;
  auto seg = make_machine(len, 16);
  CHECK(seg.read(mmv::iterated_addition_segmented_scan(seg, seg.load(v), seg.load(f))) ==
        mmv::reference::segmented_scan(v, f));
  v[10] += 1;
  auto seg_over = make_machine(len, 16);
  CHECK_THROWS_AS(mmv::iterated_addition_segmented_scan(seg_over, seg_over.load(v), seg_over.load(f)), mmv::width_error);
  // Its iota indices reach ceil(n/k) - 1: n = 2000 (k = 11) needs max(L M, n/k) = 181.8, i.e.
  // B = 9, even when every segment is one zero.
  const std::vector<word> zeros(2000, 0), heads(2000, 1);
  auto nine = make_machine(2000, 9);
  CHECK(nine.read(mmv::iterated_addition_segmented_scan(nine, nine.load(zeros), nine.load(heads))) == zeros);
  auto eight = make_machine(2000, 8);
  CHECK_THROWS_AS(mmv::iterated_addition_segmented_scan(eight, eight.load(zeros), eight.load(heads)), mmv::width_error);
}
