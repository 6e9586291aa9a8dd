// The float-mode VCU instructions (mul, div, exp, log, to_real) against plain loops in float
// and double, and float32 rounding: a float32 machine holds only float32 values, so every real
// it produces, from loads, instructions and scalar-unit constants alike, is float32-exact.
#include <cmath>
#include <functional>

#include "model_test_util.hpp"

using mmv::real;
using mmv::unit;
using mmv::word;

namespace {
bool all_float32(const std::vector<real>& v) {
  for (real x : v)
    if (static_cast<double>(static_cast<float>(x)) != x) return false;
  return true;
}
}  // namespace

TEMPLATE_TEST_CASE("mul, mul by a constant and div", "[vcu][float]", mt::f64_mode, mt::f32_mode) {
  using M = TestType;
  using C = typename M::calc;
  const auto seed = mt::fresh_seed();
  mt::rng r(seed);
  CAPTURE(M::name, seed);
  for (auto n : mt::lengths_for(4, r)) {
    CAPTURE(n);
    const auto x = M::draw(r, n);
    auto y = M::draw(r, n);
    for (auto& v : y)
      if (v == 0) v = 1;
    const real c = M::draw(r, 1)[0];
    std::vector<real> prod(x.size()), prod_c(x.size()), quot(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
      prod[i] = C(C(x[i]) * C(y[i]));
      prod_c[i] = C(C(x[i]) * C(c));
      quot[i] = C(C(x[i]) / C(y[i]));
    }
    {
      auto m = mt::make_machine(4, 32, M::format);
      CHECK(m.read(m.mul(m.load(x), m.load(y))) == prod);
      mt::check_single(m, "mul", unit::vcu, n, mt::vcu_cost(n, 2 * n), 2);
    }
    {
      auto m = mt::make_machine(4, 32, M::format);
      CHECK(m.read(m.mul(m.load(x), c)) == prod_c);
      mt::check_single(m, "mul-const", unit::vcu, n, mt::vcu_cost(n, n), 1);
    }
    {
      auto m = mt::make_machine(4, 32, M::format);
      CHECK(m.read(m.div(m.load(x), m.load(y))) == quot);
      mt::check_single(m, "div", unit::vcu, n, mt::vcu_cost(n, 2 * n), 2);
    }
  }
}

// exp and log are not basic IEEE operations: the machine may use any faithful library routine
// (Eigen's vectorised one today), so they are checked to a few ulps of std::exp / std::log,
// rounded to the format, and float32 results must be float32 words.
TEMPLATE_TEST_CASE("exp and log to within a few ulps", "[vcu][float]", mt::f64_mode, mt::f32_mode) {
  using M = TestType;
  const bool is32 = M::format == mmv::number_format::float32;
  const double ulps = is32 ? std::ldexp(1.0, -23) : 4 * std::ldexp(1.0, -52);
  const auto seed = mt::fresh_seed();
  mt::rng r(seed);
  CAPTURE(M::name, seed);
  for (auto n : mt::lengths_for(4, r)) {
    CAPTURE(n);
    auto x = r.reals(n, -20.0, 20.0), y = r.reals(n, 1e-3, 1e6);
    for (auto& v : x) v = M::rnd(v);
    for (auto& v : y) v = M::rnd(v);
    auto m = mt::make_machine(4, 32, M::format);
    const auto e = m.read(m.exp(m.load(x)));
    mt::check_single(m, "exp", unit::vcu, n, mt::vcu_cost(n, n), 1);
    auto m2 = mt::make_machine(4, 32, M::format);
    const auto l = m2.read(m2.log(m2.load(y)));
    mt::check_single(m2, "log", unit::vcu, n, mt::vcu_cost(n, n), 1);
    if (is32) {
      CHECK(all_float32(e));
      CHECK(all_float32(l));
    }
    for (std::size_t i = 0; i < x.size(); ++i) {
      CAPTURE(i, x[i], y[i], e[i], l[i]);
      const double ref_e = M::rnd(std::exp(x[i])), ref_l = M::rnd(std::log(y[i]));
      CHECK(std::abs(e[i] - ref_e) <= ulps * std::abs(ref_e));
      CHECK(std::abs(l[i] - ref_l) <= ulps * std::abs(ref_l));
    }
  }
}

TEST_CASE("to_real converts words, rounding to the format", "[vcu][float]") {
  const auto seed = mt::fresh_seed();
  mt::rng r(seed);
  CAPTURE(seed);
  for (auto n : mt::lengths_for(4, r)) {
    CAPTURE(n);
    auto x = r.words(n, INT64_MIN, INT64_MAX);
    if (n > 0) x[0] = (word{1} << 24) + 1;  // not a float32
    if (n > 1) x[1] = (word{1} << 53) + 1;  // not a float64
    std::vector<real> ref32(x.size()), ref64(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
      ref32[i] = static_cast<float>(x[i]);
      ref64[i] = static_cast<double>(x[i]);
    }
    {
      auto m = mt::make_machine(4, 64, mmv::number_format::float32);
      const auto out = m.read(m.to_real(m.load(x)));
      CHECK(out == ref32);
      CHECK(all_float32(out));
      mt::check_single(m, "to-real", unit::vcu, n, mt::vcu_cost(n, n), 1);
    }
    {
      auto m = mt::make_machine(4, 64, mmv::number_format::float64);
      CHECK(m.read(m.to_real(m.load(x))) == ref64);
      mt::check_single(m, "to-real", unit::vcu, n, mt::vcu_cost(n, n), 1);
    }
  }
}

TEST_CASE("float32 machine: loads and computed values are float32-exact", "[float]") {
  const auto seed = mt::fresh_seed();
  mt::rng r(seed);
  CAPTURE(seed);
  const auto x = r.reals(50, -1e3, 1e3), y = r.reals(50, 0.5, 1e3);
  std::vector<real> ref(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) ref[i] = static_cast<float>(x[i]);
  auto m = mt::make_machine(4, 32, mmv::number_format::float32);
  const auto a = m.load(x), b = m.load(y);
  CHECK(m.read(a) == ref);
  CHECK(mt::scalar_cost(50) == m.costs().records().front().price);
  CHECK(all_float32(m.read(m.add(a, b))));
  CHECK(all_float32(m.read(m.sub(a, b))));
  CHECK(all_float32(m.read(m.mul(a, b))));
  CHECK(all_float32(m.read(m.div(a, b))));
  CHECK(all_float32(m.read(m.log(b))));
  CHECK(all_float32(m.read(m.broadcast(real{0.1}, 5))));
  CHECK(m.read(m.broadcast(real{0.1}, 1)) == std::vector<real>{static_cast<float>(0.1)});
  // float64 keeps doubles as they are.
  auto m64 = mt::make_machine(4, 32, mmv::number_format::float64);
  CHECK(m64.read(m64.load(x)) == x);
}

// A float32 machine holds its scalar constants as float32 words too: an instruction with a
// constant operand computes with float(c), and a constant it stores (a fill) is float(c).
TEST_CASE("float32 machine: scalar constants are rounded to float32", "[float][constants]") {
  auto m = mt::make_machine(4, 32, mmv::number_format::float32);
  const real tenth = 0.1, tenth32 = static_cast<float>(0.1);
  const auto a = m.load(std::vector<real>{1.0, 2.0, 3.0});
  const auto one = m.broadcast(real{1}, 3);
  CHECK(m.read(m.shift(a, 1, tenth)) == std::vector<real>{tenth32, 1.0, 2.0});
  CHECK(m.read(m.resize(a, 4, tenth)) == std::vector<real>{1.0, 2.0, 3.0, tenth32});
  CHECK(m.read(m.select(m.load(std::vector<word>{1, 0, 1}), a, tenth)) == std::vector<real>{1.0, tenth32, 3.0});
  // 1 + (2^-24 + 2^-50): float(c) = 2^-24, and 1 + 2^-24 is a tie that float32 rounds to 1.
  const real c = std::ldexp(1.0, -24) + std::ldexp(1.0, -50);
  CHECK(static_cast<float>(1.0f + static_cast<float>(c)) == 1.0f);
  CHECK(m.read(m.add(one, c)) == std::vector<real>{1.0, 1.0, 1.0});
  CHECK(m.read(m.sub(one, -c)) == std::vector<real>{1.0, 1.0, 1.0});
  // float(0.1) == float(0.1): a float32 comparison with the constant 0.1 sees equality.
  CHECK(m.read(m.compare("eq", m.broadcast(tenth, 3), tenth)) == std::vector<word>{1, 1, 1});
  // k = 1 + 2^-24 - 2^-50 lies just below float32's midpoint above 1, so float(k) = 1 and
  // (1 + 2^-23) * float(k) = 1 + 2^-23; the unrounded k would push the product up to 1 + 2^-22.
  const real k = 1.0 + std::ldexp(1.0, -24) - std::ldexp(1.0, -50);
  const real base = 1.0 + std::ldexp(1.0, -23);
  CHECK(static_cast<float>(k) == 1.0f);
  CHECK(m.read(m.mul(m.broadcast(base, 1), k)) == std::vector<real>{base});
}
