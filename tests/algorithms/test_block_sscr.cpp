// Block-recursive SSCR with REVSPEC against reference::segmented_scan on fresh random inputs
// (seed printed; MMV_TEST_SEED fixes it) in integer, float64 and float32 modes; exact ledger
// costs against block_sscr_predicted_cost for many n and s; the O(log_s n) step and O(n s) work
// bounds; the edge cases; its narrower word-width need than SSCR; bad input; the seeds' examples.
#include "catch.hpp"
#include "test_seed.hpp"

#include "cost_check.hpp"

#include "mmvram/harness/reference.hpp"
#include "mmvram/algorithms/segmented.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <random>
#include <set>
#include <string>
#include <vector>

using mmv::real;
using mmv::word;

using mmv::test::fresh_seed;

namespace {

mmv::machine make_machine(int s, int bits = 32, mmv::number_format f = mmv::number_format::integer,
                          bool dag = true, bool trace = false) {
  mmv::machine_config c;
  c.s = s;
  c.word_bits = bits;
  c.format = f;
  c.record_dag = dag;
  c.record_trace = trace;
  return mmv::machine(c);
}

std::vector<word> random_words(std::mt19937_64& g, std::int64_t n, word lo, word hi) {
  std::vector<word> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = std::uniform_int_distribution<word>(lo, hi)(g);
  return v;
}

std::vector<word> random_flags(std::mt19937_64& g, std::int64_t n, double density) {
  std::vector<word> f(static_cast<std::size_t>(n));
  for (auto& b : f) b = std::bernoulli_distribution(density)(g) ? 1 : 0;
  return f;
}

template <class T>
std::vector<T> block_sscr(mmv::machine& m, const std::vector<T>& x, const std::vector<word>& f) {
  return m.read(mmv::block_sscr_segmented_scan(m, m.load(x, "x"), m.load(f, "f")));
}

// Every counter of the ledger equals the prediction.
void check_cost(const mmv::machine& m, std::int64_t n, int s) {
  const auto p = mmv::block_sscr_predicted_cost(n, s);
  CAPTURE(n, s, p.formula);
  mmv::test::check_ledger_equals(m, p);
  if (m.config().record_dag) CHECK(m.graph().longest_path() == p.depth);
}

std::vector<std::int64_t> lengths(int s, std::mt19937_64& g) {
  std::set<std::int64_t> n{1, 2, 3, s - 1, s, s + 1, 2 * s + 1};
  for (std::int64_t p = s; p <= 4200; p *= s) n.insert({p - 1, p, p + 1});
  for (int i = 0; i < 3; ++i) n.insert(std::uniform_int_distribution<std::int64_t>(1, 3000)(g));
  n.erase(0);
  return {n.begin(), n.end()};
}

std::string show(const std::vector<word>& v) {
  std::string s = "(";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + ")";
}

void run_example(int s, const std::vector<word>& x, const std::vector<word>& f, const std::vector<word>& want) {
  auto m = make_machine(s, 32, mmv::number_format::integer, true, true);
  const auto out = block_sscr(m, x, f);
  std::cout << "block SSCR, s = " << s << ": x = " << show(x) << ", f = " << show(f) << "\n";
  for (const auto& r : m.costs().records())
    if (r.where != mmv::unit::scalar) std::cout << "  " << r.region << "  " << r.op << " -> " << r.preview << "\n";
  std::cout << "  segmented scan = " << show(out) << "\n";
  std::cout << "  ledger: " << m.costs().totals().mmu.steps << " MMU steps, " << m.costs().totals().vcu.steps
            << " VCU steps, depth " << m.costs().depth() << "\n";
  CHECK(out == want);
  CHECK(out == mmv::reference::segmented_scan(x, f));
  check_cost(m, static_cast<std::int64_t>(x.size()), s);
}

}  // namespace

TEST_CASE("block sscr: the seeds' worked examples", "[block-sscr][example]") {
  run_example(4, {2, 2, 3, 3, 1, 3, 1, 2}, {1, 0, 1, 0, 0, 1, 0, 0}, {2, 4, 3, 6, 7, 3, 4, 6});
  run_example(2, {3, 1, 7, 0, 4, 1, 6, 3}, {1, 0, 1, 0, 0, 1, 0, 1}, {3, 4, 7, 7, 11, 1, 7, 3});
}

TEST_CASE("block sscr matches the reference on integers, with exact costs", "[block-sscr]") {
  const auto seed = fresh_seed();
  std::mt19937_64 g(seed);
  CAPTURE(seed);
  for (int s : {2, 3, 4, 8, 16, 128}) {
    for (auto n : lengths(s, g)) {
      for (double density : {0.0, 0.05, 0.5, 1.0}) {
        const auto x = random_words(g, n, -1000, 1000);
        const auto f = random_flags(g, n, density);
        CAPTURE(s, n, density);
        auto m = make_machine(s, 32, mmv::number_format::integer, n < 300);
        CHECK(block_sscr(m, x, f) == mmv::reference::segmented_scan(x, f));
        check_cost(m, n, s);
      }
    }
  }
}

TEST_CASE("block sscr: O(log_s n) steps and O(n s) work", "[block-sscr]") {
  for (int s : {2, 3, 4, 8, 16, 128}) {
    for (std::int64_t n = 1; n <= (std::int64_t{1} << 40); n = n * 3 + 1) {
      const auto p = mmv::block_sscr_predicted_cost(n, s);
      const std::int64_t levels = std::max<std::int64_t>(1, mmv::ceil_log(n, s));
      CAPTURE(s, n, levels);
      CHECK(p.mmu_steps == 2 * levels - 1);
      CHECK(p.steps() <= 14 * (levels - 1) + 5);
      CHECK(p.depth <= 9 * (levels - 1) + 4);
      // Sum over levels of N_l (s + 11) with N_l < n_l + s and n_l <= n / s^l + 1.
      CHECK(p.vcu_work <= (s + 11) * (n * s / (s - 1) + 2 * s * levels));
    }
  }
}

TEST_CASE("block sscr edge cases", "[block-sscr]") {
  const auto seed = fresh_seed();
  std::mt19937_64 g(seed);
  CAPTURE(seed);
  for (int s : {2, 3, 16}) {
    CAPTURE(s);
    const std::int64_t n = 777;
    const auto x = random_words(g, n, -50, 50);
    std::vector<std::vector<word>> cases;
    cases.push_back(std::vector<word>(n, 1));  // every position a segment
    std::vector<word> first(n, 0);
    first[0] = 1;
    cases.push_back(first);                     // one segment
    cases.push_back(std::vector<word>(n, 0));   // f[0] = 0 still starts one
    std::vector<word> giant(n, 0);              // length-1 segments around a giant one
    for (int i = 0; i < 5; ++i) giant[i] = giant[n - 1 - i] = 1;
    cases.push_back(giant);
    std::vector<word> at_block_starts(n, 0);    // flags exactly on block boundaries
    for (std::int64_t i = 0; i < n; i += s) at_block_starts[i] = 1;
    cases.push_back(at_block_starts);
    auto zero_first = random_flags(g, n, 0.1);
    zero_first[0] = 0;
    cases.push_back(zero_first);
    for (const auto& f : cases) {
      auto m = make_machine(s);
      CHECK(block_sscr(m, x, f) == mmv::reference::segmented_scan(x, f));
      check_cost(m, n, s);
    }
    auto m = make_machine(s);
    CHECK(block_sscr(m, std::vector<word>{-7}, std::vector<word>{0}) == std::vector<word>{-7});
    check_cost(m, 1, s);
  }
}

TEST_CASE("block sscr word width: only min(n, s L) max|x| must fit", "[block-sscr][width]") {
  const auto seed = fresh_seed();
  std::mt19937_64 g(seed);
  CAPTURE(seed);
  for (int s : {2, 4, 16}) {
    // B = 16, segments of length 4, |x| <= M = floor((2^15 - 1) / (4 s)) with most values at
    // +-M: the in-block sums of level 0 and of the carries reach s * 4 * M, just inside B.
    // (Alternating +-(2^15 - 1), which SSCR handles at B = 16, overflows here: the carries of
    // a level are sums over non-contiguous pieces, so only the absolute bound holds.)
    auto m = make_machine(s, 16);
    const word big = m.word_max() / (4 * s);
    auto x = random_words(g, 1000, -big, big);
    for (std::size_t i = 0; i < x.size(); i += 2) x[i] = i % 4 ? -big : big;
    std::vector<word> f(x.size(), 0);
    for (std::size_t i = 0; i < f.size(); i += 4) f[i] = 1;
    CHECK(block_sscr(m, x, f) == mmv::reference::segmented_scan(x, f));
    auto positive = make_machine(s, 16);
    const std::vector<word> top(x.size(), big);
    CHECK(block_sscr(positive, top, f) == mmv::reference::segmented_scan(top, f));
    auto alternating = make_machine(s, 16);
    std::vector<word> pm(x.size());
    for (std::size_t i = 0; i < pm.size(); ++i) pm[i] = i % 2 ? -m.word_max() : m.word_max();
    CHECK_THROWS_AS(block_sscr(alternating, pm, std::vector<word>(pm.size(), 1)), mmv::width_error);
  }
  // 16-bit data in segments of at most 8: SSCR's speculative scan needs ~27 bits, block SSCR
  // needs 1 + ceil(log2(s * 8 * 32767 + 1)) = 21 bits at s = 4.
  const std::int64_t n = 4096;
  const auto x = random_words(g, n, 0, 32767);
  std::vector<word> f(static_cast<std::size_t>(n), 0);
  for (std::int64_t i = 0; i < n; i += std::uniform_int_distribution<std::int64_t>(1, 8)(g)) f[i] = 1;
  std::int64_t longest = 0, run = 0;
  for (std::int64_t i = 0; i < n; ++i) longest = std::max(longest, run = (i == 0 || f[i]) ? 1 : run + 1);
  const word max_x = *std::max_element(x.begin(), x.end());
  const int s = 4;
  const auto bound = std::min(n, s * longest) * max_x;
  const int need = 1 + static_cast<int>(std::ceil(std::log2(static_cast<double>(bound + 1))));
  CAPTURE(longest, max_x, need);
  auto narrow = make_machine(s, need);
  CHECK(block_sscr(narrow, x, f) == mmv::reference::segmented_scan(x, f));
  auto same_for_sscr = make_machine(s, need);
  CHECK_THROWS_AS(mmv::sscr_segmented_scan(same_for_sscr, same_for_sscr.load(x), same_for_sscr.load(f)),
                  mmv::width_error);
  // One giant segment: the true segmented values themselves exceed B = 24.
  auto giant = make_machine(s, 24);
  CHECK_THROWS_AS(block_sscr(giant, x, std::vector<word>(static_cast<std::size_t>(n), 0)), mmv::width_error);
}

TEST_CASE("block sscr in float64 and float32", "[block-sscr][float]") {
  const auto seed = fresh_seed();
  std::mt19937_64 g(seed);
  CAPTURE(seed);
  for (auto format : {mmv::number_format::float64, mmv::number_format::float32}) {
    const double u = format == mmv::number_format::float32 ? 0x1p-24 : 0x1p-53;
    for (int s : {2, 4, 16, 128}) {
      for (std::int64_t n : {1, 5, 129, 2000}) {
        std::vector<real> x(static_cast<std::size_t>(n));
        double magnitude = 0;
        for (auto& v : x) {
          v = static_cast<float>(std::uniform_real_distribution<real>(-1, 1)(g));
          magnitude += std::fabs(v);
        }
        const auto f = random_flags(g, n, 0.02);
        CAPTURE(mmv::to_string(format), s, n);
        auto m = make_machine(s, 32, format, false);
        const auto got = block_sscr(m, x, f);
        const auto want = mmv::reference::segmented_scan(x, f);
        // Each of the ceil(log_s n) levels rounds a few partial sums no larger than magnitude.
        const double tol = 8 * u * (std::log2(static_cast<double>(n)) + 2) * magnitude;
        REQUIRE(got.size() == want.size());
        for (std::size_t i = 0; i < got.size(); ++i) CHECK(std::fabs(got[i] - want[i]) <= tol);
        check_cost(m, n, s);

        std::vector<real> small(x.size());  // small integers: every float sum is exact
        for (auto& v : small) v = static_cast<real>(std::uniform_int_distribution<int>(-100, 100)(g));
        auto exact = make_machine(s, 32, format, false);
        CHECK(block_sscr(exact, small, f) == mmv::reference::segmented_scan(small, f));
      }
    }
  }
}

TEST_CASE("block sscr rejects bad input and files its phases", "[block-sscr]") {
  for (int s : {2, 8}) {
    auto m = make_machine(s);
    const auto x = m.load(std::vector<word>{1, 2, 3, 4, 5});
    CHECK_THROWS_AS(mmv::block_sscr_segmented_scan(m, x, m.load(std::vector<word>{1, 0, 0})), mmv::model_error);
    CHECK_THROWS_AS(mmv::block_sscr_segmented_scan(m, x, m.load(std::vector<word>{1, 0, 2, 0, 0})), mmv::model_error);
    CHECK_THROWS_AS(mmv::block_sscr_segmented_scan(m, x, m.load(std::vector<word>{1, 0, 0, 0, -1})), mmv::model_error);
  }
  auto ok = make_machine(4);
  block_sscr(ok, std::vector<word>(10, 3), std::vector<word>{1, 0, 1, 0, 0, 0, 1, 0, 0, 1});
  const auto& regions = ok.costs().by_region();
  for (const char* phase : {"block_sscr/pad", "block_sscr/scan-blocks", "block_sscr/revspec", "block_sscr/block-flags",
                            "block_sscr/carries", "block_sscr/correct", "block_sscr/unpad"})
    CHECK(regions.count(phase) == 1);
  CHECK(regions.at("block_sscr/revspec").vcu.work == 3 * 4 * 4 + 4 * 4);  // N s at both levels
}
