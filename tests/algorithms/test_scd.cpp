// SCD (DIFF o COMPRESS o SCAN) against reference::segmented_sum on fresh random inputs (seed
// printed; MMV_TEST_SEED fixes it) in integer, float64 and float32 modes; exact ledger costs
// against scd_predicted_cost; the edge cases; the word-width bound; bad input; and the worked
// example of docs/algorithms/scd.md (x = 2 2 3 3 1 3 1 2), printed step by step.
#include "catch.hpp"
#include "test_seed.hpp"

#include "cost_check.hpp"

#include "mmvram/harness/reference.hpp"
#include "mmvram/algorithms/scan.hpp"
#include "mmvram/algorithms/segmented.hpp"

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

std::int64_t segments_of(const std::vector<word>& f) {
  std::int64_t k = f.empty() ? 0 : 1;
  for (std::size_t i = 1; i < f.size(); ++i) k += f[i];
  return k;
}

template <class T>
std::vector<T> scd(mmv::machine& m, const std::vector<T>& x, const std::vector<word>& f) {
  return m.read(mmv::scd_segmented_sum(m, m.load(x, "x"), m.load(f, "f")));
}

// Every counter of the ledger equals the prediction.
void check_cost(const mmv::machine& m, std::int64_t n, int s, std::int64_t segments) {
  const auto p = mmv::scd_predicted_cost(n, s, segments);
  CAPTURE(n, s, segments, p.formula);
  mmv::test::check_ledger_equals(m, p);
  if (m.config().record_dag) CHECK(m.graph().longest_path() == p.depth);
}

std::vector<std::int64_t> lengths(int s, std::mt19937_64& g) {
  std::set<std::int64_t> n{1, 2, 3, s - 1, s, s + 1, 2 * s + 1};
  for (std::int64_t p = s; p <= 3000; p *= s) n.insert({p - 1, p, p + 1});
  for (int i = 0; i < 3; ++i) n.insert(std::uniform_int_distribution<std::int64_t>(1, 3000)(g));
  n.erase(0);
  return {n.begin(), n.end()};
}

std::string show(const std::vector<word>& v) {
  std::string s = "(";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + ")";
}

}  // namespace

TEST_CASE("scd: seed 001's worked example", "[scd][example]") {
  const std::vector<word> x{2, 2, 3, 3, 1, 3, 1, 2}, f{1, 0, 1, 0, 0, 1, 0, 0};
  auto m = make_machine(4, 32, mmv::number_format::integer, true, true);
  const auto out = scd(m, x, f);
  std::cout << "SCD, s = 4: x = " << show(x) << ", f = " << show(f) << "\n";
  for (const auto& r : m.costs().records())
    if (r.where != mmv::unit::scalar) std::cout << "  " << r.region << "  " << r.op << " -> " << r.preview << "\n";
  std::cout << "  segmented sum = " << show(out) << "\n";
  std::cout << "  ledger: " << m.costs().totals().mmu.steps << " MMU steps, " << m.costs().totals().vcu.steps
            << " VCU steps, depth " << m.costs().depth() << "\n";
  CHECK(out == std::vector<word>{4, 7, 6});
  CHECK(out == mmv::reference::segmented_sum(x, f));
}

TEST_CASE("scd matches the reference on integers, with exact costs", "[scd]") {
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
        CHECK(scd(m, x, f) == mmv::reference::segmented_sum(x, f));
        check_cost(m, n, s, segments_of(f));
      }
    }
  }
}

TEST_CASE("scd edge cases", "[scd]") {
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
    auto zero_first = random_flags(g, n, 0.1);
    zero_first[0] = 0;
    cases.push_back(zero_first);
    for (const auto& f : cases) {
      auto m = make_machine(s);
      CHECK(scd(m, x, f) == mmv::reference::segmented_sum(x, f));
      check_cost(m, n, s, segments_of(f));
    }
    auto m = make_machine(s);
    CHECK(scd(m, std::vector<word>{-7}, std::vector<word>{0}) == std::vector<word>{-7});
    check_cost(m, 1, s, 1);
  }
  // The two-argument prediction is the one-segment case.
  const auto one = mmv::scd_predicted_cost(1000, 8), explicit_one = mmv::scd_predicted_cost(1000, 8, 1);
  CHECK(one.vcu_work == explicit_one.vcu_work);
  CHECK(one.depth == explicit_one.depth);
}

TEST_CASE("scd on values at the word limit and the width bound", "[scd][width]") {
  const auto seed = fresh_seed();
  std::mt19937_64 g(seed);
  CAPTURE(seed);
  for (int s : {2, 4, 16}) {  // B = 16, x alternates +-(2^15 - 1): every prefix fits
    auto m = make_machine(s, 16);
    std::vector<word> x(1000);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = i % 2 ? -m.word_max() : m.word_max();
    const auto f = random_flags(g, 1000, 0.2);
    CHECK(scd(m, x, f) == mmv::reference::segmented_sum(x, f));
  }
  const std::int64_t n = 4096;
  const std::vector<word> same(static_cast<std::size_t>(n), 1000);
  const auto f = random_flags(g, n, 0.05);
  const int need = 1 + static_cast<int>(std::ceil(std::log2(static_cast<double>(n * 1000 + 1))));
  auto enough = make_machine(8, need);
  CHECK(scd(enough, same, f) == mmv::reference::segmented_sum(same, f));
  auto short_by_one = make_machine(8, need - 1);  // the speculative total n * 1000 no longer fits
  CHECK_THROWS_AS(scd(short_by_one, same, f), mmv::width_error);
}

TEST_CASE("scd in float64 and float32", "[scd][float]") {
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
        const auto got = scd(m, x, f);
        const auto want = mmv::reference::segmented_sum(x, f);
        const double tol = 8 * u * (std::log2(static_cast<double>(n)) + 2) * magnitude;
        REQUIRE(got.size() == want.size());
        for (std::size_t i = 0; i < got.size(); ++i) CHECK(std::fabs(got[i] - want[i]) <= tol);
        check_cost(m, n, s, segments_of(f));

        std::vector<real> small(x.size());  // small integers: every float sum is exact
        for (auto& v : small) v = static_cast<real>(std::uniform_int_distribution<int>(-100, 100)(g));
        auto exact = make_machine(s, 32, format, false);
        CHECK(scd(exact, small, f) == mmv::reference::segmented_sum(small, f));
      }
    }
  }
}

TEST_CASE("scd rejects bad input and files its phases", "[scd]") {
  auto m = make_machine(4);
  const auto x = m.load(std::vector<word>{1, 2, 3, 4, 5});
  CHECK_THROWS_AS(mmv::scd_segmented_sum(m, x, m.load(std::vector<word>{1, 0, 0})), mmv::model_error);
  CHECK_THROWS_AS(mmv::scd_segmented_sum(m, x, m.load(std::vector<word>{1, 0, 2, 0, 0})), mmv::model_error);
  CHECK_THROWS_AS(mmv::scd_segmented_sum(m, x, m.load(std::vector<word>{1, 0, 0, 0, -1})), mmv::model_error);

  auto ok = make_machine(4);
  scd(ok, std::vector<word>(10, 3), std::vector<word>{1, 0, 1, 0, 0, 0, 1, 0, 0, 1});
  const auto& regions = ok.costs().by_region();
  for (const char* phase : {"scd/flags", "scd/compress", "scd/diff"}) CHECK(regions.count(phase) == 1);
  for (const char* phase : {"scd/scan-x", "scd/scan-f"}) {
    std::int64_t steps = 0;
    for (const auto& [path, c] : regions)
      if (path.rfind(phase, 0) == 0) steps += c.mmu.steps;
    CHECK(steps == mmv::matmul_scan_predicted_cost(10, 4).mmu_steps);
  }
}
