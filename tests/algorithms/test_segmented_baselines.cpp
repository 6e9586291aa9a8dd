// VCU-only segmented scans (Schwartz operator transform, Sengupta min-index form) against
// reference::segmented_scan and an independent per-segment std::inclusive_scan, on fresh random
// inputs (seed printed; MMV_TEST_SEED fixes it) and flag patterns, in integer, float64 and
// float32 modes; bad input; word widths; exact ledger costs against the predictions.
#include "catch.hpp"
#include "test_seed.hpp"

#include "mmvram/harness/reference.hpp"
#include "mmvram/algorithms/segmented_baselines.hpp"

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

using mmv::real;
using mmv::word;

using mmv::test::fresh_seed;

namespace {

mmv::machine make_machine(int bits = 32, mmv::number_format f = mmv::number_format::integer, bool dag = true) {
  mmv::machine_config c;
  c.s = 4;
  c.word_bits = bits;
  c.format = f;
  c.record_dag = dag;
  return mmv::machine(c);
}

template <class T> using seg_fn = mmv::vec<T> (*)(mmv::machine&, const mmv::vec<T>&, const mmv::word_vec&);
using cost_fn = mmv::cost_prediction (*)(std::int64_t, int);

struct algorithm {
  std::string name;
  seg_fn<word> on_words;
  seg_fn<real> on_reals;
  cost_fn predicted;
};

const std::vector<algorithm>& algorithms() {
  static const std::vector<algorithm> all{
      {"schwartz", mmv::schwartz_segmented_scan<word>, mmv::schwartz_segmented_scan<real>,
       mmv::schwartz_segmented_scan_predicted_cost},
      {"min-index", mmv::min_index_segmented_scan<word>, mmv::min_index_segmented_scan<real>,
       mmv::min_index_segmented_scan_predicted_cost}};
  return all;
}

// A second, independent reference: split at the flags, std::inclusive_scan each piece.
template <class T>
std::vector<T> per_segment_scan(const std::vector<T>& x, const std::vector<word>& f) {
  std::vector<T> out(x.size());
  std::size_t start = 0;
  for (std::size_t i = 1; i <= x.size(); ++i)
    if (i == x.size() || f[i]) {
      std::inclusive_scan(x.begin() + static_cast<std::ptrdiff_t>(start), x.begin() + static_cast<std::ptrdiff_t>(i),
                          out.begin() + static_cast<std::ptrdiff_t>(start));
      start = i;
    }
  return out;
}

// Named flag patterns for length n; "random" draws with density p.
std::vector<std::pair<std::string, std::vector<word>>> flag_patterns(std::mt19937_64& g, std::int64_t n) {
  const auto un = static_cast<std::size_t>(n);
  std::vector<std::pair<std::string, std::vector<word>>> out;
  out.push_back({"all set", std::vector<word>(un, 1)});
  std::vector<word> first(un, 0);
  if (n) first[0] = 1;
  out.push_back({"only first", first});
  out.push_back({"none (f[0] = 0)", std::vector<word>(un, 0)});
  std::vector<word> giant(un, 0);  // length-1 segments, then one giant segment, then singles
  for (std::size_t i = 0; i < un; ++i) giant[i] = (i < un / 4 || i + 2 >= un) ? 1 : 0;
  out.push_back({"singles around a giant", giant});
  for (double p : {0.02, 0.3, 0.8}) {
    std::vector<word> f(un);
    for (auto& v : f) v = std::bernoulli_distribution(p)(g) ? 1 : 0;
    if (n) f[0] = std::bernoulli_distribution(0.5)(g) ? 1 : 0;  // f[0] must not matter
    out.push_back({"random p=" + std::to_string(p), f});
  }
  return out;
}

void check_cost(const mmv::machine& m, std::int64_t n, cost_fn predicted) {
  const auto p = predicted(n, m.s());
  const auto& t = m.costs().totals();
  CAPTURE(n, p.formula);
  CHECK(t.mmu.steps == 0);
  CHECK(p.mmu_steps == 0);
  CHECK(t.vcu.steps == p.vcu_steps);
  CHECK(m.costs().depth() == p.depth);
  CHECK(t.vcu.work == p.vcu_work);
  CHECK(p.tile_products == 0);
  CHECK(p.multiply_adds == 0);
}

const std::vector<std::int64_t> lengths{0, 1, 2, 3, 4, 5, 7, 8, 9, 31, 32, 33, 100, 257};

}  // namespace

TEST_CASE("segmented baselines match both references on integers", "[segmented]") {
  const auto seed = fresh_seed();
  std::mt19937_64 g(seed);
  CAPTURE(seed);
  for (auto n : lengths) {
    std::vector<word> x(static_cast<std::size_t>(n));
    for (auto& v : x) v = std::uniform_int_distribution<word>(-1000, 1000)(g);
    for (const auto& [pattern, f] : flag_patterns(g, n)) {
      const auto ref = mmv::reference::segmented_scan(x, f);
      REQUIRE(ref == per_segment_scan(x, f));
      for (const auto& a : algorithms()) {
        CAPTURE(a.name, n, pattern);
        auto m = make_machine();
        CHECK(m.read(a.on_words(m, m.load(x), m.load(f))) == ref);
        check_cost(m, n, a.predicted);
      }
    }
  }
}

TEST_CASE("segmented baselines in float64 and float32 modes", "[segmented]") {
  const auto seed = fresh_seed();
  std::mt19937_64 g(seed);
  CAPTURE(seed);
  for (auto format : {mmv::number_format::float64, mmv::number_format::float32}) {
    const bool f32 = format == mmv::number_format::float32;
    for (auto n : lengths) {
      std::vector<real> x(static_cast<std::size_t>(n));
      for (auto& v : x) v = std::uniform_real_distribution<real>(-1, 1)(g);
      if (f32)
        for (auto& v : x) v = static_cast<float>(v);
      double scale = 1;
      for (auto v : x) scale += std::abs(v);
      const double tol = (f32 ? 1e-6 : 1e-14) * scale * 4;
      for (const auto& [pattern, f] : flag_patterns(g, n)) {
        const auto ref = mmv::reference::segmented_scan(x, f);
        for (const auto& a : algorithms()) {
          CAPTURE(a.name, n, pattern, f32);
          auto m = make_machine(32, format);
          const auto out = m.read(a.on_reals(m, m.load(x), m.load(f)));
          REQUIRE(out.size() == ref.size());
          for (std::size_t i = 0; i < out.size(); ++i) {
            CAPTURE(i);
            CHECK(std::abs(out[i] - ref[i]) <= tol);
          }
          check_cost(m, n, a.predicted);
        }
      }
    }
  }
}

TEST_CASE("segmented baselines reject bad input", "[segmented][errors]") {
  for (const auto& a : algorithms()) {
    CAPTURE(a.name);
    for (std::int64_t n : {1, 2, 9}) {
      CAPTURE(n);
      auto m = make_machine();
      const auto x = m.load(std::vector<word>(static_cast<std::size_t>(n), 3));
      std::vector<word> bad(static_cast<std::size_t>(n), 0);
      bad.back() = 2;
      CHECK_THROWS_AS(a.on_words(m, x, m.load(bad)), mmv::model_error);
      bad.back() = -1;
      CHECK_THROWS_AS(a.on_words(m, x, m.load(bad)), mmv::model_error);
      CHECK_THROWS_AS(a.on_words(m, x, m.load(std::vector<word>(static_cast<std::size_t>(n + 1), 0))),
                      mmv::model_error);
    }
  }
}

TEST_CASE("segmented baselines and the word width", "[segmented][width]") {
  const auto seed = fresh_seed();
  std::mt19937_64 g(seed);
  CAPTURE(seed);
  const std::int64_t n = 100;
  std::vector<word> f(n, 0);
  f[0] = 1;
  f[50] = 1;
  for (const auto& a : algorithms()) {
    CAPTURE(a.name);
    // Each segment's total is exactly 2^15 - 1: every value fits B = 16, so the scan passes
    // (the two segments together would not: no sum may cross a segment start).
    std::vector<word> x(n);
    for (auto& v : x) v = std::uniform_int_distribution<word>(600, 655)(g);
    x[49] = 32767 - std::accumulate(x.begin(), x.begin() + 49, word{0});
    x[99] = 32767 - std::accumulate(x.begin() + 50, x.begin() + 99, word{0});
    auto m16 = make_machine(16);
    CHECK(m16.read(a.on_words(m16, m16.load(x), m16.load(f))) == mmv::reference::segmented_scan(x, f));
    // One more unit in the first segment overflows: width_error.
    x[10] += 1;
    auto m = make_machine(16);
    CHECK_THROWS_AS(a.on_words(m, m.load(x), m.load(f)), mmv::width_error);
  }
}

TEST_CASE("segmented baselines take Theta(log n) steps, exactly as predicted", "[segmented][cost]") {
  const auto seed = fresh_seed();
  std::mt19937_64 g(seed);
  CAPTURE(seed);
  std::set<std::int64_t> ns{1, 2, 3000};
  for (std::int64_t p = 2; p <= 3000; p *= 2) ns.insert({p - 1, p, p + 1});
  for (int i = 0; i < 10; ++i) ns.insert(std::uniform_int_distribution<std::int64_t>(1, 3000)(g));
  for (auto n : ns) {
    std::vector<word> x(static_cast<std::size_t>(n)), f(static_cast<std::size_t>(n));
    for (auto& v : x) v = std::uniform_int_distribution<word>(-9, 9)(g);
    for (auto& v : f) v = std::bernoulli_distribution(0.05)(g) ? 1 : 0;
    const auto ref = mmv::reference::segmented_scan(x, f);
    std::int64_t rounds = 0;  // ceil(log2 n), counted independently
    while ((std::int64_t{1} << rounds) < n) ++rounds;
    for (const auto& a : algorithms()) {
      CAPTURE(a.name, n);
      auto m = make_machine(32, mmv::number_format::integer, false);
      CHECK(m.read(a.on_words(m, m.load(x), m.load(f))) == ref);
      check_cost(m, n, a.predicted);
      const auto p = a.predicted(n, 4);
      if (a.name == "schwartz") {
        CHECK(p.vcu_steps == (n == 1 ? 1 : 5 * rounds - 1));
        CHECK(p.depth == (n == 1 ? 1 : 3 * rounds));
      } else {
        CHECK(p.vcu_steps == 6 * rounds + 3);
        CHECK(p.depth == (n == 1 ? 3 : 5 * rounds + 3));
      }
    }
  }
}

TEST_CASE("worked example: x = (2,2,3,3,1,3,1,2), f = (1,0,1,0,0,1,0,0)", "[segmented][example]") {
  const std::vector<word> x{2, 2, 3, 3, 1, 3, 1, 2}, f{1, 0, 1, 0, 0, 1, 0, 0};
  for (const auto& a : algorithms()) {
    mmv::machine_config c;
    c.s = 4;
    c.record_trace = true;
    mmv::machine m(c);
    CHECK(m.read(a.on_words(m, m.load(x), m.load(f))) == std::vector<word>{2, 4, 3, 6, 7, 3, 4, 6});
    std::cout << a.name << ", x = (2,2,3,3,1,3,1,2), f = (1,0,1,0,0,1,0,0)\n";
    for (const auto& r : m.costs().records())
      if (r.where != mmv::unit::scalar)
        std::cout << "  [depth " << r.depth << "] " << r.op << " -> " << r.preview << "\n";
  }
}
