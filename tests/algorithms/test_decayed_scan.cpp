// The decayed segmented scan h_j = a_j h_{j-1} + b_j (reset at flags): the stable form against
// the float64 loop reference::decayed_scan on fresh random inputs in float64 and float32, flag
// edge cases, its exact ledger counts, and the breakdown of the unstable (subtraction) form on
// a long sequence next to the stable one.
#include "catch.hpp"
#include "test_seed.hpp"

#include "cost_check.hpp"

#include "mmvram/algorithms/decayed_scan.hpp"
#include "mmvram/harness/reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

using mmv::real;
using mmv::word;

using mmv::test::fresh_seed;

namespace {

struct inputs {
  std::vector<real> a, b;
  std::vector<word> f;
};

inputs draw(std::mt19937_64& g, std::int64_t n, double a_lo, double a_hi, double p_flag) {
  inputs in;
  std::uniform_real_distribution<double> ua(a_lo, a_hi), ub(-1.0, 1.0);
  std::bernoulli_distribution flag(p_flag);
  for (std::int64_t i = 0; i < n; ++i) {
    in.a.push_back(ua(g));
    in.b.push_back(ub(g));
    in.f.push_back(flag(g) ? 1 : 0);
  }
  return in;
}

mmv::machine make(int s, mmv::number_format format) {
  mmv::machine_config c;
  c.s = s;
  c.format = format;
  c.record_dag = false;
  return mmv::machine(c);
}

// Runs the stable scan; `ref` and `scale` come from the inputs as the machine rounded them.
// scale_j = Σ_i decay(i→j)|b_i| bounds |h_j| and is what rounding errors are relative to.
struct outcome {
  std::vector<real> h, ref, scale;
  double worst() const {
    double e = 0;
    for (std::size_t j = 0; j < h.size(); ++j) e = std::max(e, std::abs(h[j] - ref[j]) / (scale[j] + 1e-300));
    return e;
  }
};

template <class Algo>
outcome run(Algo algo, int s, mmv::number_format format, const inputs& in) {
  auto m = make(s, format);
  const auto a = m.load(in.a), b = m.load(in.b);
  const auto f = m.load(in.f);
  outcome o;
  o.h = m.read(algo(m, a, b, f));
  const auto ar = m.read(a), br = m.read(b);
  std::vector<real> abs_b(br.size());
  for (std::size_t i = 0; i < br.size(); ++i) abs_b[i] = std::abs(br[i]);
  o.ref = mmv::reference::decayed_scan(ar, br, in.f);
  o.scale = mmv::reference::decayed_scan(ar, abs_b, in.f);
  return o;
}

const auto stable = [](mmv::machine& m, const mmv::real_vec& a, const mmv::real_vec& b, const mmv::word_vec& f) {
  return mmv::decayed_scan_stable(m, a, b, f);
};
const auto unstable = [](mmv::machine& m, const mmv::real_vec& a, const mmv::real_vec& b, const mmv::word_vec& f) {
  return mmv::decayed_scan_unstable(m, a, b, f);
};

}  // namespace

TEST_CASE("stable decayed scan matches the float64 loop", "[decayed]") {
  const auto seed = fresh_seed();
  std::mt19937_64 g(seed);
  const int s = GENERATE(2, 3, 4, 8, 16, 128);
  const auto format = GENERATE(mmv::number_format::float64, mmv::number_format::float32);
  const double tol = format == mmv::number_format::float64 ? 1e-12 : 2e-5;
  CAPTURE(seed, s, mmv::to_string(format));
  const std::int64_t sizes[] = {1, 2, s - 1, s, s + 1, s * s, s * s + 3, std::uniform_int_distribution<std::int64_t>(1, 700)(g)};
  for (const std::int64_t n : sizes) {
    if (n * s > 300'000) continue;  // s = 128: n = s^2 belongs in benchmarks (work n s^2)
    for (const double p_flag : {0.0, 0.05, 0.5}) {
      CAPTURE(n, p_flag);
      const auto in = draw(g, n, 0.05, 1.0, p_flag);
      const auto o = run(stable, s, format, in);
      REQUIRE(o.h.size() == static_cast<std::size_t>(n));
      CHECK(o.worst() <= tol);
    }
  }
}

TEST_CASE("stable decayed scan: flag edge cases", "[decayed]") {
  const auto seed = fresh_seed();
  std::mt19937_64 g(seed);
  const int s = GENERATE(2, 3, 8);
  CAPTURE(seed, s);
  const std::int64_t n = 5 * s + 2;
  auto in = draw(g, n, 0.3, 1.0, 0.0);
  auto check = [&](const char* what) {
    CAPTURE(what);
    const auto o = run(stable, s, mmv::number_format::float64, in);
    CHECK(o.worst() <= 1e-12);
    return o;
  };
  in.f.assign(n, 1);  // every position its own segment: h = b
  CHECK(check("all flags").h == in.b);
  in.f.assign(n, 0);
  in.f[0] = 1;
  check("only the first flag");
  in.f[0] = 0;
  check("no flag at all (position 0 still starts)");
  in.f[3] = 1;
  check("f[0] = 0, one flag inside");
  in.f.assign(n, 0);  // length-1 segments at the front and the back, a giant one between
  in.f[1] = in.f[2] = in.f[n - 1] = 1;
  const auto o = check("segments of length 1 beside a giant one");
  CHECK(o.h[0] == in.b[0]);
  CHECK(o.h[1] == in.b[1]);
  CHECK(o.h[n - 1] == in.b[n - 1]);
  in.a.assign(n, 1.0);  // a = 1: a plain segmented sum
  check("a = 1");
}

TEST_CASE("stable decayed scan: bad inputs", "[decayed]") {
  auto m = make(4, mmv::number_format::float64);
  const auto a = m.load(std::vector<real>{0.5, 0.5, 0.5}), b = m.load(std::vector<real>{1, 2, 3});
  CHECK_THROWS_AS(mmv::decayed_scan_stable(m, a, b, m.load(std::vector<word>{1, 0})), mmv::model_error);
  CHECK_THROWS_AS(mmv::decayed_scan_stable(m, a, b, m.load(std::vector<word>{1, 2, 0})), mmv::model_error);
  CHECK(mmv::decayed_scan_stable(m, mmv::real_vec{}, mmv::real_vec{}, mmv::word_vec{}).size() == 0);
}

TEST_CASE("stable decayed scan: exact ledger counts", "[decayed][cost]") {
  const int s = GENERATE(2, 3, 4, 8, 16, 128);
  for (const std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{s - 1}, std::int64_t{s}, std::int64_t{s + 1},
                               std::int64_t{s} * s, std::int64_t{s} * s + 1, std::int64_t{s} * s * s, std::int64_t{1000}}) {
    if (n * s > 2'000'000) continue;
    CAPTURE(s, n);
    std::mt19937_64 g(n * 31 + s);
    const auto in = draw(g, n, 0.1, 1.0, 0.2);
    auto m = make(s, mmv::number_format::float64);
    mmv::decayed_scan_stable(m, m.load(in.a), m.load(in.b), m.load(in.f));
    const auto p = mmv::decayed_scan_stable_predicted_cost(n, s);
    mmv::test::check_ledger_equals(m, p);
    // The closed forms of the step counts, restated: L = max(1, ceil(log_s n)) levels.
    if (n > 0) {
      std::int64_t levels = 1;
      for (std::int64_t cap = s; cap < n; cap *= s) ++levels;
      CHECK(p.mmu_steps == 3 * levels - 1);
      CHECK(p.vcu_steps == 22 * levels - 6 + (n % s != 0 ? 1 : 0));
      CHECK(p.depth == 10 * levels + (n % s != 0 ? 1 : 0));
    }
  }
}

TEST_CASE("unstable decayed scan: exact ledger counts", "[decayed][cost]") {
  const int s = GENERATE(2, 3, 4, 8, 16, 128);
  for (const std::int64_t n : {std::int64_t{1}, std::int64_t{s - 1}, std::int64_t{s}, std::int64_t{s + 1},
                               std::int64_t{s} * s + 1, std::int64_t{1000}}) {
    CAPTURE(s, n);
    std::mt19937_64 g(n * 17 + s);
    auto in = draw(g, n, 0.9, 1.0, 0.3);
    in.f[0] = 0;  // position 0 starts a segment anyway
    const std::int64_t segments = 1 + std::count(in.f.begin() + 1, in.f.end(), word{1});
    auto m = make(s, mmv::number_format::float64);
    mmv::decayed_scan_unstable(m, m.load(in.a), m.load(in.b), m.load(in.f));
    const auto p = mmv::decayed_scan_unstable_predicted_cost(n, s, segments);
    mmv::test::check_ledger_equals(m, p);
  }
  CHECK_THROWS_AS(mmv::decayed_scan_unstable_predicted_cost(4, 2, 0), mmv::model_error);
}

TEST_CASE("the subtraction form breaks down where the stable form does not", "[decayed][stability]") {
  const auto seed = fresh_seed();
  std::mt19937_64 g(seed);
  CAPTURE(seed);
  {  // short sequences: both forms are accurate
    const auto in = draw(g, 60, 0.5, 0.9, 0.1);
    CHECK(run(unstable, 8, mmv::number_format::float64, in).worst() <= 1e-9);
    CHECK(run(stable, 8, mmv::number_format::float64, in).worst() <= 1e-12);
  }
  struct long_case {
    mmv::number_format format;
    std::int64_t n;
    double stable_tol;
  };
  for (const auto c : {long_case{mmv::number_format::float64, 4096, 1e-12}, long_case{mmv::number_format::float32, 512, 2e-5}}) {
    // a in [0.5, 0.9]: log a averages about -0.36, so -c_n reaches ~1470 (n = 4096) or ~185
    // (n = 512), past exp's range in float64 (709) and float32 (88). Few flags: long segments.
    const auto in = draw(g, c.n, 0.5, 0.9, 0.002);
    const auto u = run(unstable, 16, c.format, in), s = run(stable, 16, c.format, in);
    std::int64_t non_finite = 0;
    for (const real v : u.h) non_finite += std::isfinite(v) ? 0 : 1;
    std::int64_t stable_non_finite = 0;
    for (const real v : s.h) stable_non_finite += std::isfinite(v) ? 0 : 1;
    std::printf("decayed scan, %s, n = %lld, a in [0.5, 0.9]: unstable max rel. error %g (%lld of %lld outputs inf/NaN), "
                "stable max rel. error %g\n",
                mmv::to_string(c.format), static_cast<long long>(c.n), u.worst(), static_cast<long long>(non_finite),
                static_cast<long long>(c.n), s.worst());
    CAPTURE(mmv::to_string(c.format), u.worst(), non_finite, s.worst());
    CHECK((non_finite > 0 || u.worst() > 1.0));  // NaN compares false, so count them apart
    CHECK(stable_non_finite == 0);
    CHECK(s.worst() <= c.stable_tol);
  }
}

TEST_CASE("worked example (docs/algorithms/decayed_scan.md)", "[decayed][example]") {
  // b and f are the 8-item segmented-scan example of the docs; log a repeats (-0.5, -0.3, -0.7, -0.2).
  const std::vector<real> log_a{-0.5, -0.3, -0.7, -0.2, -0.5, -0.3, -0.7, -0.2};
  std::vector<real> a;
  for (const real l : log_a) a.push_back(std::exp(l));
  const std::vector<real> b{2, 2, 3, 3, 1, 3, 1, 2};
  const std::vector<word> f{1, 0, 1, 0, 0, 1, 0, 0};
  mmv::machine_config c;
  c.s = 4;
  c.format = mmv::number_format::float64;
  c.record_trace = true;
  mmv::machine m(c);
  const auto h = m.read(mmv::decayed_scan_stable(m, m.load(a), m.load(b), m.load(f)));
  const auto ref = mmv::reference::decayed_scan(a, b, f);
  std::printf("decayed scan worked example, s = 4 (first 16 values of each instruction):\n");
  for (const auto& r : m.costs().records())
    if (r.where != mmv::unit::scalar) std::printf("  %-28s %-14s %s\n", r.region.c_str(), r.op.c_str(), r.preview.c_str());
  std::printf("  h   =");
  for (const real v : h) std::printf(" %.6f", v);
  std::printf("\n  ref =");
  for (const real v : ref) std::printf(" %.6f", v);
  std::printf("\n");
  for (std::size_t j = 0; j < h.size(); ++j) CHECK(std::abs(h[j] - ref[j]) <= 1e-14 * (1 + std::abs(ref[j])));
  const auto p = mmv::decayed_scan_stable_predicted_cost(8, 4);
  CHECK(m.costs().totals().mmu.steps == p.mmu_steps);
  CHECK(m.costs().totals().vcu.steps == p.vcu_steps);
  CHECK(m.costs().depth() == p.depth);
}
