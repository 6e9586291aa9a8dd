// The multi-lane decayed segmented scan (state passing): against the float64 loop
// reference::decayed_scan run lane by lane on fresh random inputs (float64 and float32, both
// decay kinds), edge cases, index words as wide as the indices, per-head = per-row when a head's
// rows share their decay, no leakage across sequences, exact ledger counts, and steps growing
// like log_s G.
#include "catch.hpp"
#include "test_seed.hpp"

#include "cost_check.hpp"

#include "mmvram/algorithms/state_passing.hpp"
#include "mmvram/harness/reference.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

using mmv::real;
using mmv::word;

using mmv::test::fresh_seed;

namespace {

struct inputs {
  mmv::state_shape shape;
  std::vector<real> u, l;
  std::vector<word> f;
  std::int64_t chunks() const { return static_cast<std::int64_t>(f.size()); }
};

// u standard normal, log-decays in [-1, 0] (one in eight exactly 0), chunk starts at p_flag.
inputs draw(std::mt19937_64& g, std::int64_t G, const mmv::state_shape& sh, double p_flag) {
  inputs in{sh, {}, {}, {}};
  std::normal_distribution<double> nu;
  std::uniform_real_distribution<double> ul(-1.0, 0.0);
  std::bernoulli_distribution flag(p_flag), zero(0.125);
  for (std::int64_t i = 0; i < G * sh.lanes(); ++i) in.u.push_back(nu(g));
  for (std::int64_t i = 0; i < G * sh.decay_rows(); ++i) in.l.push_back(zero(g) ? 0.0 : ul(g));
  for (std::int64_t j = 0; j < G; ++j) in.f.push_back(flag(g) ? 1 : 0);
  return in;
}

mmv::machine make(int s, mmv::number_format format, int bits = 32) {
  mmv::machine_config c;
  c.s = s;
  c.format = format;
  c.word_bits = bits;
  c.record_dag = false;
  return mmv::machine(c);
}

// The lanes of `in` one by one through the single-lane float64 loop, on (u, l) or (|u|, l).
std::vector<real> lane_by_lane(const inputs& in, const std::vector<real>& u, const std::vector<real>& l, bool magnitude) {
  const std::int64_t G = in.chunks(), D = in.shape.decay_rows(), K = in.shape.lanes_per_decay(), L = D * K;
  std::vector<real> out(u.size());
  for (std::int64_t lane = 0; lane < L; ++lane) {
    std::vector<real> a, b;
    for (std::int64_t j = 0; j < G; ++j) {
      a.push_back(std::exp(l[j * D + lane / K]));
      b.push_back(magnitude ? std::abs(u[j * L + lane]) : u[j * L + lane]);
    }
    const auto h = mmv::reference::decayed_scan(a, b, in.f);
    for (std::int64_t j = 0; j < G; ++j) out[j * L + lane] = h[j];
  }
  return out;
}

struct outcome {
  std::vector<real> h, ref, scale;
  double worst() const {
    double e = 0;
    for (std::size_t i = 0; i < h.size(); ++i) e = std::max(e, std::abs(h[i] - ref[i]) / (scale[i] + 1e-300));
    return e;
  }
};

// Runs the scan at word width `bits`; ref and scale come from the inputs as the machine holds them.
outcome run(int s, mmv::number_format format, const inputs& in, int bits = 32) {
  auto m = make(s, format, bits);
  const auto u = m.load(in.u), l = m.load(in.l);
  outcome o;
  o.h = m.read(mmv::state_passing_scan(m, u, l, m.load(in.f), in.shape));
  o.ref = lane_by_lane(in, m.read(u), m.read(l), false);
  o.scale = lane_by_lane(in, m.read(u), m.read(l), true);
  return o;
}

const mmv::state_shape shapes[] = {{1, 1, 1, false}, {1, 1, 1, true},  {2, 4, 8, false}, {2, 4, 8, true},
                                   {3, 2, 5, false}, {3, 2, 5, true},  {1, 3, 1, true},  {2, 1, 3, false}};

}  // namespace

TEST_CASE("state passing matches the float64 loop lane by lane", "[state-passing]") {
  const auto seed = fresh_seed();
  std::mt19937_64 g(seed);
  const int s = GENERATE(2, 3, 4, 8, 16);
  const auto format = GENERATE(mmv::number_format::float64, mmv::number_format::float32);
  const double tol = format == mmv::number_format::float64 ? 1e-12 : 2e-5;
  CAPTURE(seed, s, mmv::to_string(format));
  const std::int64_t sizes[] = {1, 2, s - 1, s, s + 1, s * s + 3, std::uniform_int_distribution<std::int64_t>(1, 300)(g)};
  for (const auto& sh : shapes)
    for (const std::int64_t G : sizes) {
      if (G * sh.lanes() * s > 200'000) continue;
      for (const double p_flag : {0.0, 0.05, 0.5, 1.0}) {
        CAPTURE(sh.heads, sh.rows, sh.cols, sh.per_head, G, p_flag);
        const auto in = draw(g, G, sh, p_flag);
        const auto o = run(s, format, in);
        REQUIRE(o.h.size() == in.u.size());
        CHECK(o.worst() <= tol);
      }
    }
}

TEST_CASE("state passing: edge cases", "[state-passing]") {
  const auto seed = fresh_seed();
  std::mt19937_64 g(seed);
  const int s = GENERATE(2, 3, 8);
  CAPTURE(seed, s);
  const mmv::state_shape sh{2, 3, 4, false};
  {  // G = 0: nothing to do, nothing issued
    auto m = make(s, mmv::number_format::float64);
    const inputs in = draw(g, 0, sh, 0.5);
    CHECK(mmv::state_passing_scan(m, m.load(in.u), m.load(in.l), m.load(in.f), sh).size() == 0);
    CHECK(m.costs().totals().vcu.steps == 0);
  }
  {  // G = 1 and every chunk a start: h = u exactly
    for (const std::int64_t G : {std::int64_t{1}, std::int64_t{5} * s + 2}) {
      auto in = draw(g, G, sh, 1.0);
      CHECK(run(s, mmv::number_format::float64, in).h == in.u);
      in.f[0] = 0;  // chunk 0 starts a sequence whatever its flag
      CHECK(run(s, mmv::number_format::float64, in).h.front() == in.u.front());
    }
  }
  {  // one giant sequence (no flag at all), G not a multiple of s, and every decay 1 (l = 0)
    auto in = draw(g, 7 * s + 3, sh, 0.0);
    CHECK(run(s, mmv::number_format::float64, in).worst() <= 1e-12);
    std::fill(in.l.begin(), in.l.end(), 0.0);
    CHECK(run(s, mmv::number_format::float64, in).worst() <= 1e-12);
  }
}

TEST_CASE("state passing: index words need only the bits of the indices", "[state-passing][width]") {
  const auto seed = fresh_seed();
  std::mt19937_64 g(seed);
  CAPTURE(seed);
  {  // `mmvram run state-passing --mode float32 --n 4099 --s 128` at B = 32: 34.6 M lane cells
    const auto in = draw(g, 4099, mmv::state_shape{}, 0.05);
    CHECK(run(128, mmv::number_format::float32, in).worst() <= 2e-5);
  }
  // Many lanes on few cells, where an index once carried (lanes)·i > 2^31 (from_u, and col when
  // D is large): each runs at the smallest B with gp·max(D·s, W) <= 2^(B−1) and fails one below.
  struct edge {
    mmv::state_shape shape;
    std::int64_t G;
    int s;
  };
  for (const edge& e : {edge{{2, 4, 1024, false}, 9, 8}, edge{{2, 4096, 1, false}, 9, 8}, edge{{2, 64, 64, true}, 9, 8},
                        edge{{1, 1, 65536, false}, 3, 2}}) {
    const std::int64_t D = e.shape.decay_rows(), W = e.shape.lanes(), gp = mmv::ceil_div(e.G, e.s) * e.s;
    int bits = 2;
    while ((std::int64_t{1} << (bits - 1)) < gp * std::max(D * e.s, W)) ++bits;
    CAPTURE(e.shape.heads, e.shape.rows, e.shape.cols, e.shape.per_head, e.G, e.s, bits);
    const auto in = draw(g, e.G, e.shape, 0.2);
    CHECK(run(e.s, mmv::number_format::float32, in, bits).worst() <= 2e-5);
    CHECK_THROWS_AS(run(e.s, mmv::number_format::float32, in, bits - 1), mmv::width_error);
  }
}

TEST_CASE("state passing: per head equals per row when a head's rows share their decay", "[state-passing]") {
  const auto seed = fresh_seed();
  std::mt19937_64 g(seed);
  const int s = GENERATE(2, 4, 16);
  CAPTURE(seed, s);
  const std::int64_t G = 3 * s * s + 5, H = 3, N = 4, V = 2;
  const inputs head = draw(g, G, {H, N, V, true}, 0.1);
  inputs row = head;
  row.shape.per_head = false;
  row.l.clear();
  for (const real l : head.l) row.l.insert(row.l.end(), N, l);  // [G][H] -> [G][H][N]
  CHECK(run(s, mmv::number_format::float64, head).h == run(s, mmv::number_format::float64, row).h);
}

TEST_CASE("state passing: no leakage across sequences", "[state-passing]") {
  const auto seed = fresh_seed();
  std::mt19937_64 g(seed);
  const int s = GENERATE(2, 3, 8);
  const bool per_head = GENERATE(false, true);
  CAPTURE(seed, s, per_head);
  const mmv::state_shape sh{2, 2, 3, per_head};
  const std::int64_t G = 4 * s * s + 1, L = sh.lanes();
  inputs in = draw(g, G, sh, 0.08);
  in.f[G / 3] = in.f[2 * G / 3] = 1;  // at least three sequences
  std::vector<std::int64_t> starts;
  for (std::int64_t j = 0; j < G; ++j)
    if (j == 0 || in.f[j]) starts.push_back(j);
  starts.push_back(G);
  for (const auto k : {std::size_t{0}, starts.size() / 2, starts.size() - 2}) {  // first, middle, last sequence
    const std::int64_t lo = starts[k], hi = starts[k + 1];
    CAPTURE(lo, hi);
    inputs changed = in;
    for (std::int64_t i = lo * L; i < hi * L; ++i) changed.u[i] = 1e3 * changed.u[i] + 7.0;
    const auto before = run(s, mmv::number_format::float64, in).h, after = run(s, mmv::number_format::float64, changed).h;
    std::int64_t differ_outside = 0, differ_inside = 0;
    for (std::int64_t i = 0; i < G * L; ++i) (i >= lo * L && i < hi * L ? differ_inside : differ_outside) += before[i] != after[i];
    CHECK(differ_outside == 0);
    CHECK(differ_inside == (hi - lo) * L);
  }
}

TEST_CASE("state passing: bad inputs", "[state-passing]") {
  auto m = make(4, mmv::number_format::float64);
  const mmv::state_shape sh{1, 2, 2, false};
  const auto u = m.load(std::vector<real>(12, 1.0)), l = m.load(std::vector<real>(6, -0.5));
  CHECK(mmv::state_passing_scan(m, u, l, m.load(std::vector<word>{1, 0, 1}), sh).size() == 12);
  CHECK_THROWS_AS(mmv::state_passing_scan(m, u, l, m.load(std::vector<word>{1, 0}), sh), mmv::model_error);
  CHECK_THROWS_AS(mmv::state_passing_scan(m, u, l, m.load(std::vector<word>{1, 0, 1}), {1, 2, 2, true}), mmv::model_error);
  CHECK_THROWS_AS(mmv::state_passing_scan(m, u, l, m.load(std::vector<word>{1, 2, 0}), sh), mmv::model_error);
  CHECK_THROWS_AS(mmv::state_passing_scan(m, u, l, m.load(std::vector<word>{1, 0, 1}), {0, 2, 2, false}), mmv::model_error);
  CHECK_THROWS_AS(mmv::state_passing_predicted_cost(4, 0, 1, 1, false, 4), mmv::model_error);
  CHECK_THROWS_AS(mmv::state_passing_predicted_cost(4, 1, 1, 1, false, 1), mmv::model_error);
}

TEST_CASE("state passing: the closed forms of docs/algorithms/state_passing.md", "[state-passing][cost]") {
  for (const int s : {2, 3, 16})
    for (const std::int64_t G : {1, 2, 15, 16, 17, 256, 1000, 4096, 100000})
      for (const mmv::state_shape sh : {mmv::state_shape{2, 4, 8, false}, mmv::state_shape{3, 2, 5, true}}) {
        CAPTURE(s, G, sh.per_head);
        const std::int64_t D = sh.decay_rows(), W = sh.lanes(), odd = G % s != 0 ? 1 : 0;
        std::int64_t levels = 0, macs = 0, work = 4 * G * D + odd * G * W;
        for (std::int64_t n = G;; n = mmv::ceil_div(n, s)) {  // level by level: g = padded chunks
          const std::int64_t next = mmv::ceil_div(n, s), g = next * s, last = next == 1 ? 1 : 0;
          ++levels;
          macs += (g * D + g * W + (1 - last) * g * D) * s * s;
          work += 14 * g * D * s + 14 * g * W * s + g * D + 2 * g * W + 2 * s + 1;
          if (last) break;
          work += 2 * g * D + 8 * g * W + 4 * next * (D + W) + mmv::ceil_div(next, s) * s * W;
        }
        const auto p = mmv::state_passing_predicted_cost(G, sh.heads, sh.rows, sh.cols, sh.per_head, s);
        CHECK(p.mmu_steps == 3 * levels - 1);
        CHECK(p.vcu_steps == 52 * levels - 15 + odd);
        CHECK(p.depth == 10 * levels + 4 + odd);
        CHECK(p.multiply_adds == macs);
        CHECK(p.vcu_work == work);
      }
}

TEST_CASE("state passing: exact ledger counts", "[state-passing][cost]") {
  const int s = GENERATE(2, 3, 4, 16);
  for (const auto& sh : shapes)
    for (const std::int64_t G : {std::int64_t{0}, std::int64_t{1}, std::int64_t{s - 1}, std::int64_t{s}, std::int64_t{s + 1},
                                 std::int64_t{s} * s, std::int64_t{s} * s + 1, std::int64_t{s} * s * s + 2, std::int64_t{100}}) {
      if (G * sh.lanes() * s > 400'000) continue;
      CAPTURE(s, G, sh.heads, sh.rows, sh.cols, sh.per_head);
      std::mt19937_64 g(G * 31 + s);
      const auto in = draw(g, G, sh, 0.2);
      auto m = make(s, mmv::number_format::float64);
      mmv::state_passing_scan(m, m.load(in.u), m.load(in.l), m.load(in.f), sh);
      mmv::test::check_ledger_equals(m, mmv::state_passing_predicted_cost(G, sh.heads, sh.rows, sh.cols, sh.per_head, s));
    }
}

TEST_CASE("state passing: steps grow like log_s G and not with the lanes", "[state-passing][cost]") {
  for (const int s : {2, 4, 16}) {
    CAPTURE(s);
    const auto steps = [s](std::int64_t G, std::int64_t H, std::int64_t N, std::int64_t V) {
      return mmv::state_passing_predicted_cost(G, H, N, V, false, s).steps();
    };
    std::int64_t G = s;
    const std::int64_t per_level = steps(G * s, 2, 4, 8) - steps(G, 2, 4, 8);
    for (int level = 1; level < 8; ++level, G *= s) {
      CAPTURE(G);
      CHECK(steps(G * s, 2, 4, 8) - steps(G, 2, 4, 8) == per_level);  // a constant per level of s
      CHECK(steps(G + 1, 2, 4, 8) - steps(G, 2, 4, 8) <= per_level + 1);
      CHECK(steps(G, 2, 4, 8) == steps(G, 5, 3, 7));  // lanes change the work, not the steps
      CHECK(mmv::state_passing_predicted_cost(G, 2, 4, 8, true, s).steps() == steps(G, 2, 4, 8));
    }
  }
  // A run's ledger at G = 512 = 2^9 chunks with s = 2 against the prediction: 9 levels.
  mmv::machine m = make(2, mmv::number_format::float64);
  const mmv::state_shape sh{2, 4, 8, false};
  std::mt19937_64 g(5);
  const auto in = draw(g, 512, sh, 0.01);
  mmv::state_passing_scan(m, m.load(in.u), m.load(in.l), m.load(in.f), sh);
  mmv::test::check_ledger_equals(m, mmv::state_passing_predicted_cost(512, 2, 4, 8, false, 2));
}
