// Unsegmented scans (Hillis–Steele, Brent–Kung, MatMulScan) against reference::inclusive_scan
// and std::inclusive_scan on fresh random inputs (seed printed; MMV_TEST_SEED fixes it), in
// integer, float64 and float32 modes; exact ledger costs against *_predicted_cost; the
// MatMulScan bounds (MMU depth, tile products) and its s = 2 correspondence with Brent–Kung.
#include "catch.hpp"
#include "test_seed.hpp"

#include "cost_check.hpp"

#include "mmvram/harness/reference.hpp"
#include "mmvram/algorithms/scan.hpp"

#include <cmath>
#include <cstdlib>
#include <functional>
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

mmv::machine make_machine(int s, int bits = 32, mmv::number_format f = mmv::number_format::integer,
                          bool trace = false) {
  mmv::machine_config c;
  c.s = s;
  c.word_bits = bits;
  c.format = f;
  c.record_trace = trace;
  return mmv::machine(c);
}

std::vector<word> random_words(std::mt19937_64& g, std::int64_t n, word lo, word hi) {
  std::vector<word> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = std::uniform_int_distribution<word>(lo, hi)(g);
  return v;
}

std::vector<real> random_reals(std::mt19937_64& g, std::int64_t n) {
  std::vector<real> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = std::uniform_real_distribution<real>(-1.0, 1.0)(g);
  return v;
}

// The float32 machine rounds its loads: the reference scans the rounded values.
std::vector<real> to_f32(std::vector<real> v) {
  for (auto& x : v) x = static_cast<float>(x);
  return v;
}

template <class T> using scan_fn = mmv::vec<T> (*)(mmv::machine&, const mmv::vec<T>&);
using cost_fn = mmv::cost_prediction (*)(std::int64_t, int);

struct algorithm {
  std::string name;
  scan_fn<word> on_words;
  scan_fn<real> on_reals;
  cost_fn predicted;
};

const std::vector<algorithm>& algorithms() {
  static const std::vector<algorithm> all{
      {"hillis-steele", mmv::hillis_steele_scan<word>, mmv::hillis_steele_scan<real>, mmv::hillis_steele_predicted_cost},
      {"brent-kung", mmv::brent_kung_scan<word>, mmv::brent_kung_scan<real>, mmv::brent_kung_predicted_cost},
      {"matmul-scan", mmv::matmul_scan<word>, mmv::matmul_scan<real>, mmv::matmul_scan_predicted_cost}};
  return all;
}

// Every counter of the ledger equals the prediction.
void check_cost(const mmv::machine& m, std::int64_t n, int s, cost_fn predicted) {
  const auto p = predicted(n, s);
  CAPTURE(n, s, p.formula);
  mmv::test::check_ledger_equals(m, p);
  CHECK(m.graph().longest_path() == p.depth);
}

// Lengths around every interesting boundary for tile size s, capped at `cap`.
std::vector<std::int64_t> edge_lengths(int s, std::int64_t cap) {
  std::set<std::int64_t> n{0, 1, 2, 3, s - 1, s, s + 1, 2 * s - 1, 2 * s, 2 * s + 1};
  for (std::int64_t p = s; p <= cap; p *= s) n.insert({p - 1, p, p + 1, p * 2, p * (s - 1) + 1});
  std::set<std::int64_t> kept;
  for (auto v : n)
    if (v >= 0 && v <= cap) kept.insert(v);
  return {kept.begin(), kept.end()};
}

}  // namespace

TEST_CASE("scans match the sequential references on integers", "[scan]") {
  const auto seed = fresh_seed();
  std::mt19937_64 g(seed);
  CAPTURE(seed);
  for (int s : {2, 3, 4, 8, 16}) {
    for (auto n : edge_lengths(s, 700)) {
      const auto x = random_words(g, n, -1000, 1000);
      const auto ref = mmv::reference::inclusive_scan(x);
      std::vector<word> std_ref(x.size());
      std::inclusive_scan(x.begin(), x.end(), std_ref.begin());
      REQUIRE(ref == std_ref);
      for (const auto& a : algorithms()) {
        CAPTURE(a.name, s, n);
        auto m = make_machine(s);
        CHECK(m.read(a.on_words(m, m.load(x))) == ref);
        check_cost(m, n, s, a.predicted);
      }
    }
  }
}

TEST_CASE("scans match the reference in float64 and float32 modes", "[scan]") {
  const auto seed = fresh_seed();
  std::mt19937_64 g(seed);
  CAPTURE(seed);
  for (auto format : {mmv::number_format::float64, mmv::number_format::float32}) {
    const bool f32 = format == mmv::number_format::float32;
    for (int s : {2, 4, 16, 128}) {
      for (auto n : edge_lengths(s, 600)) {
        const auto x = f32 ? to_f32(random_reals(g, n)) : random_reals(g, n);
        const auto ref = mmv::reference::inclusive_scan(x);
        double scale = 0;  // the error of any summation order is bounded by eps * sum |x| * depth
        for (auto v : x) scale += std::abs(v);
        const double tol = (f32 ? 1e-6 : 1e-14) * (scale + 1) * 4;
        for (const auto& a : algorithms()) {
          CAPTURE(a.name, s, n, f32);
          auto m = make_machine(s, 32, format);
          const auto out = m.read(a.on_reals(m, m.load(x)));
          REQUIRE(out.size() == ref.size());
          for (std::size_t i = 0; i < out.size(); ++i) {
            CAPTURE(i);
            CHECK(std::abs(out[i] - ref[i]) <= tol);
          }
          check_cost(m, n, s, a.predicted);
        }
      }
    }
  }
}

TEST_CASE("exact costs for sampled n and every tile size", "[scan][cost]") {
  const auto seed = fresh_seed();
  std::mt19937_64 g(seed);
  CAPTURE(seed);
  for (int s : {2, 3, 4, 8, 16, 128}) {
    std::set<std::int64_t> lengths{1, 2, 3000};
    for (std::int64_t p = s; p <= 3000; p *= s) lengths.insert({p - 1, p, p + 1});
    for (int i = 0; i < 12; ++i) lengths.insert(std::uniform_int_distribution<std::int64_t>(1, 3000)(g));
    for (auto n : lengths) {
      const auto x = random_words(g, n, 0, 9);
      const auto ref = mmv::reference::inclusive_scan(x);
      for (const auto& a : algorithms()) {
        CAPTURE(a.name, s, n);
        mmv::machine_config c;
        c.s = s;
        c.record_dag = false;
        mmv::machine m(c);
        CHECK(m.read(a.on_words(m, m.load(x))) == ref);
        const auto p = a.predicted(n, s);
        mmv::test::check_ledger_equals(m, p);
      }
      // MatMulScan's MMU steps: 2 ceil(log_s n) - 1, i.e. 2 floor(log_s n) + 1 off the powers of s.
      const auto p = mmv::matmul_scan_predicted_cost(n, s);
      CHECK(p.mmu_steps == (n <= 1 ? 0 : n <= s ? 1 : 2 * mmv::ceil_log(n, s) - 1));
    }
  }
}

TEST_CASE("n = 0 and n = 1 pass through without steps", "[scan]") {
  for (const auto& a : algorithms()) {
    for (int s : {2, 5}) {
      CAPTURE(a.name, s);
      auto m = make_machine(s);
      CHECK(m.read(a.on_words(m, m.load(std::vector<word>{}))).empty());
      CHECK(m.read(a.on_words(m, m.load(std::vector<word>{-7}))) == std::vector<word>{-7});
      CHECK(m.costs().totals().total().steps == 0);
    }
  }
}

TEST_CASE("MatMulScan meets the MMU depth and tile-product bounds for n = s^k", "[scan][matmul]") {
  for (int s : {2, 3, 4, 8, 16, 128}) {
    std::int64_t n = s;
    for (std::int64_t k = 1; n <= 20000; ++k, n *= s) {
      CAPTURE(s, k, n);
      const std::vector<word> x(static_cast<std::size_t>(n), 1);
      mmv::machine_config c;
      c.s = s;
      c.record_dag = false;
      mmv::machine m(c);
      CHECK(m.read(mmv::matmul_scan(m, m.load(x))) == mmv::reference::inclusive_scan(x));
      const auto& mmu = m.costs().totals().mmu;
      // Every MMU step lies on the critical path (each consumes the previous one's output).
      CHECK(mmu.steps == 2 * k - 1);
      CHECK(mmu.steps <= 2 * mmv::floor_log(n, s));
      // Our tiles: 2 (s^(k-1) - 1) / (s - 1) + 1; the design's bound: ceil(2n / (s(s-1))) + 2k - 2.
      std::int64_t geometric = 0;  // 1 + s + ... + s^(k-2)
      for (std::int64_t e = 0, p = 1; e + 2 <= k; ++e, p *= s) geometric += p;
      CHECK(mmu.tile_products == 2 * geometric + 1);
      CHECK(mmu.tile_products <= mmv::ceil_div(2 * n, std::int64_t{s} * (s - 1)) + 2 * k - 2);
      // Full DAG depth: each level also needs one VCU data movement (see docs/algorithms/matmul_scan.md).
      CHECK(m.costs().depth() == (k == 1 ? 1 : 4 * k - 2));
    }
  }
}

TEST_CASE("MatMulScan with s = 2 is Brent-Kung step for step", "[scan][matmul]") {
  for (std::int64_t n = 3; n <= 300; n += (n < 40 ? 1 : 37)) {
    CAPTURE(n);
    std::vector<word> x(static_cast<std::size_t>(n));
    std::iota(x.begin(), x.end(), -5);
    auto mm = make_machine(2), bk = make_machine(2);
    CHECK(mm.read(mmv::matmul_scan(mm, mm.load(x))) == bk.read(mmv::brent_kung_scan(bk, bk.load(x))));
    // Brent-Kung's combining steps: the pairwise adds of the up- and down-sweeps and the top
    // shift; each is one MMU product of MatMulScan with s = 2. Both end with one add of x.
    std::int64_t bk_combines = 0;
    for (const auto& r : bk.costs().records())
      bk_combines += (r.op == "add" && r.region != "brent-kung/finish") || r.region == "brent-kung/top";
    CHECK(mm.costs().totals().mmu.steps == bk_combines);
    CHECK(mm.costs().depth() == bk.costs().depth());
  }
}

TEST_CASE("Hillis-Steele takes ceil(log2 n) add rounds", "[scan][hillis-steele]") {
  for (std::int64_t n : {2, 3, 4, 5, 63, 64, 65, 1000}) {
    CAPTURE(n);
    const std::vector<word> x(static_cast<std::size_t>(n), 2);
    auto m = make_machine(4);
    CHECK(m.read(mmv::hillis_steele_scan(m, m.load(x))) == mmv::reference::inclusive_scan(x));
    std::int64_t adds = 0, rounds = 0;
    for (const auto& r : m.costs().records()) adds += r.op == "add" ? 1 : 0;
    while ((std::int64_t{1} << rounds) < n) ++rounds;
    CHECK(adds == rounds);
    CHECK(m.costs().depth() == 2 * rounds);
  }
}

TEST_CASE("scans and the word width B", "[scan][width]") {
  const auto seed = fresh_seed();
  std::mt19937_64 g(seed);
  CAPTURE(seed);
  for (int s : {2, 3, 16}) {
    for (const auto& a : algorithms()) {
      CAPTURE(a.name, s);
      // Non-negative data whose total is exactly 2^15 - 1: every intermediate fits B = 16.
      auto x = random_words(g, 100, 0, 327);
      x.back() = 32767 - std::accumulate(x.begin(), x.end() - 1, word{0});
      auto m = make_machine(s, 16);
      CHECK(m.read(a.on_words(m, m.load(x))) == mmv::reference::inclusive_scan(x));
      // Mixed signs within the documented bound: 64 * 511 = 32704 < 2^15.
      const auto y = random_words(g, 64, -511, 511);
      auto my = make_machine(s, 16);
      CHECK(my.read(a.on_words(my, my.load(y))) == mmv::reference::inclusive_scan(y));
      // One more unit and the total no longer fits: width_error.
      x.back() += 1;
      auto small = make_machine(s, 16);
      CHECK_THROWS_AS(a.on_words(small, small.load(x)), mmv::width_error);
    }
  }
}

TEST_CASE("worked example: MatMulScan on x = (2,2,3,3,1,3,1,2)", "[scan][example]") {
  const std::vector<word> x{2, 2, 3, 3, 1, 3, 1, 2};
  for (int s : {2, 4}) {
    CAPTURE(s);
    auto m = make_machine(s, 32, mmv::number_format::integer, true);
    const auto out = m.read(mmv::matmul_scan(m, m.load(x)));
    CHECK(out == std::vector<word>{2, 4, 7, 10, 11, 14, 15, 17});
    std::cout << "MatMulScan, s = " << s << ", x = (2,2,3,3,1,3,1,2)\n";
    std::vector<std::string> lines;
    for (const auto& r : m.costs().records()) {
      if (r.where == mmv::unit::scalar) continue;
      lines.push_back(r.region + " " + r.op + " -> " + r.preview);
      std::cout << "  [depth " << r.depth << "] " << lines.back() << "\n";
    }
    // The last down-sweep product is the exclusive scan; the final add makes it inclusive.
    REQUIRE(lines.size() >= 2);
    CHECK(lines[lines.size() - 2] == "matmul-scan/down mmu -> [0 2 4 7 10 11 14 15]");
    CHECK(lines.back() == "matmul-scan/finish add -> [2 4 7 10 11 14 15 17]");
    CHECK(lines.front() == (s == 2 ? "matmul-scan/up mmu -> [4 2 6 3 4 1 3 1]"
                                   : "matmul-scan/up mmu -> [10 2 4 7 7 1 4 5]"));
  }
}

TEST_CASE("worked example: the VCU scans on x = (2,2,3,3,1,3,1,2)", "[scan][example]") {
  const std::vector<word> x{2, 2, 3, 3, 1, 3, 1, 2};
  for (const auto& a : algorithms()) {
    if (a.name == "matmul-scan") continue;
    auto m = make_machine(2, 32, mmv::number_format::integer, true);
    CHECK(m.read(a.on_words(m, m.load(x))) == std::vector<word>{2, 4, 7, 10, 11, 14, 15, 17});
    std::cout << a.name << ", x = (2,2,3,3,1,3,1,2)\n";
    for (const auto& r : m.costs().records())
      if (r.where != mmv::unit::scalar)
        std::cout << "  [depth " << r.depth << "] " << r.region << " " << r.op << " -> " << r.preview << "\n";
  }
}
