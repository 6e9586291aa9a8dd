// VCU arithmetic, comparison, selection and logic: every instruction's output against a plain
// loop on fresh random inputs (integer, float64 and float32 machines), and its ledger record
// against the cost definition (cost.hpp): one step, work m, m words written, the words read.
#include <functional>
#include <tuple>

#include "model_test_util.hpp"

using mmv::real;
using mmv::unit;
using mmv::word;

TEST_CASE("cost helpers of the tests agree with the instruction table", "[cost]") {
  using mmv::op_code;
  using z = mmv::operand_sizes;
  for (std::int64_t m : {0, 1, 5, 16, 17, 1000})
    for (std::int64_t s : {2, 3, 4, 16, 128}) {
      CAPTURE(m, s);
      CHECK(mt::vcu_cost(m, 3 * m) == mmv::price_of(op_code::select, z{m, m, m, s}));
      CHECK(mt::vcu_cost(m, 2 * m) == mmv::price_of(op_code::add, z{m, m, m, s}));
      CHECK(mt::vcu_cost(m, m) == mmv::price_of(op_code::mul_const, z{m, m, 0, s}));
      CHECK(mt::revspec_cost(m, s) == mmv::price_of(op_code::revspec, z{m, m, m, s}));
      CHECK(mt::mmu_cost(m, s) == mmv::price_of(op_code::mmu, z{m * s, m * s, s * s, s}));
      CHECK(mt::scalar_cost(m) == mmv::price_of(op_code::load, z{m, m, 0, s}));
    }
  mmv::cost a{1, 2, 3, 4, 5, 6}, b{10, 20, 30, 40, 50, 60};
  CHECK(a + b == mmv::cost{11, 22, 33, 44, 55, 66});
  a += b;
  CHECK(a == mmv::cost{11, 22, 33, 44, 55, 66});
}

TEMPLATE_TEST_CASE("add, sub, min, max of two vectors", "[vcu]", mt::int_mode, mt::f64_mode, mt::f32_mode) {
  using M = TestType;
  using T = typename M::T;
  using C = typename M::calc;
  using run_fn = std::function<mmv::vec<T>(mmv::machine&, const mmv::vec<T>&, const mmv::vec<T>&)>;
  struct binop {
    std::string name;
    run_fn run;
    std::function<T(C, C)> ref;
  };
  const std::vector<binop> ops = {
      {"add", [](mmv::machine& m, auto& a, auto& b) { return m.add(a, b); }, [](C x, C y) { return T(C(x + y)); }},
      {"sub", [](mmv::machine& m, auto& a, auto& b) { return m.sub(a, b); }, [](C x, C y) { return T(C(x - y)); }},
      {"min", [](mmv::machine& m, auto& a, auto& b) { return m.min(a, b); }, [](C x, C y) { return T(x < y ? x : y); }},
      {"max", [](mmv::machine& m, auto& a, auto& b) { return m.max(a, b); }, [](C x, C y) { return T(x < y ? y : x); }},
  };
  const auto seed = mt::fresh_seed();
  mt::rng r(seed);
  const int s = GENERATE(2, 3, 16);
  CAPTURE(M::name, seed, s);
  for (auto n : mt::lengths_for(s, r)) {
    auto x = M::draw(r, n), y = M::draw(r, n);
    for (std::int64_t i = 0; i < n; ++i)
      if (r.uniform(0, 3) == 0) y[i] = x[i];  // ties for min/max
    for (const auto& op : ops) {
      CAPTURE(n, op.name);
      auto m = mt::make_machine(s, 32, M::format);
      const auto out = m.read(op.run(m, m.load(x), m.load(y)));
      std::vector<T> ref(x.size());
      for (std::size_t i = 0; i < x.size(); ++i) ref[i] = op.ref(C(x[i]), C(y[i]));
      CHECK(out == ref);
      mt::check_single(m, op.name, unit::vcu, n, mt::vcu_cost(n, 2 * n), 2);
    }
  }
}

TEMPLATE_TEST_CASE("add and sub of a scalar constant, neg", "[vcu]", mt::int_mode, mt::f64_mode, mt::f32_mode) {
  using M = TestType;
  using T = typename M::T;
  using C = typename M::calc;
  const auto seed = mt::fresh_seed();
  mt::rng r(seed);
  const int s = GENERATE(2, 5);
  CAPTURE(M::name, seed, s);
  for (auto n : mt::lengths_for(s, r)) {
    const auto x = M::draw(r, n);
    const T c = M::draw(r, 1)[0];  // representable in the mode
    CAPTURE(n, c);
    std::vector<T> plus(x.size()), minus(x.size()), negated(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
      plus[i] = T(C(C(x[i]) + C(c)));
      minus[i] = T(C(C(x[i]) - C(c)));
      negated[i] = T(C(-C(x[i])));
    }
    {
      auto m = mt::make_machine(s, 32, M::format);
      CHECK(m.read(m.add(m.load(x), c)) == plus);
      mt::check_single(m, "add-const", unit::vcu, n, mt::vcu_cost(n, n), 1);
    }
    {
      auto m = mt::make_machine(s, 32, M::format);
      CHECK(m.read(m.sub(m.load(x), c)) == minus);
      mt::check_single(m, "sub-const", unit::vcu, n, mt::vcu_cost(n, n), 1);
    }
    {
      auto m = mt::make_machine(s, 32, M::format);
      CHECK(m.read(m.neg(m.load(x))) == negated);
      mt::check_single(m, "neg", unit::vcu, n, mt::vcu_cost(n, n), 1);
    }
  }
}

TEMPLATE_TEST_CASE("compare: all six ops, vector and constant", "[vcu]", mt::int_mode, mt::f64_mode, mt::f32_mode) {
  using M = TestType;
  using T = typename M::T;
  const std::vector<std::pair<std::string, std::function<bool(T, T)>>> ops = {
      {"eq", [](T a, T b) { return a == b; }}, {"ne", [](T a, T b) { return a != b; }},
      {"lt", [](T a, T b) { return a < b; }},  {"le", [](T a, T b) { return a <= b; }},
      {"gt", [](T a, T b) { return a > b; }},  {"ge", [](T a, T b) { return a >= b; }},
  };
  const auto seed = mt::fresh_seed();
  mt::rng r(seed);
  const int s = GENERATE(2, 7);
  CAPTURE(M::name, seed, s);
  for (auto n : mt::lengths_for(s, r)) {
    auto x = M::draw(r, n), y = M::draw(r, n);
    for (std::int64_t i = 0; i < n; ++i)
      if (r.uniform(0, 2) == 0) y[i] = x[i];
    const T c = n > 0 ? x[static_cast<std::size_t>(r.uniform(0, n - 1))] : T(3);  // a tie somewhere
    for (const auto& [name, pred] : ops) {
      CAPTURE(n, name, c);
      std::vector<word> ref(x.size()), ref_c(x.size());
      for (std::size_t i = 0; i < x.size(); ++i) {
        ref[i] = pred(x[i], y[i]) ? 1 : 0;
        ref_c[i] = pred(x[i], c) ? 1 : 0;
      }
      {
        auto m = mt::make_machine(s, 32, M::format);
        CHECK(m.read(m.compare(name, m.load(x), m.load(y))) == ref);
        mt::check_single(m, name, unit::vcu, n, mt::vcu_cost(n, 2 * n), 2);
      }
      {
        auto m = mt::make_machine(s, 32, M::format);
        CHECK(m.read(m.compare(name, m.load(x), c)) == ref_c);
        mt::check_single(m, name + "-const", unit::vcu, n, mt::vcu_cost(n, n), 1);
      }
    }
  }
}

TEMPLATE_TEST_CASE("select of two vectors and of a vector and a constant", "[vcu]", mt::int_mode, mt::f64_mode,
                   mt::f32_mode) {
  using M = TestType;
  using T = typename M::T;
  const auto seed = mt::fresh_seed();
  mt::rng r(seed);
  const int s = GENERATE(2, 4);
  CAPTURE(M::name, seed, s);
  for (auto n : mt::lengths_for(s, r)) {
    const auto x = M::draw(r, n), y = M::draw(r, n);
    const auto f = r.flags(n, 0.5);
    const T c = M::draw(r, 1)[0];
    CAPTURE(n, c);
    std::vector<T> ref(x.size()), ref_c(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
      ref[i] = f[i] == 1 ? x[i] : y[i];
      ref_c[i] = f[i] == 1 ? x[i] : c;
    }
    {
      auto m = mt::make_machine(s, 32, M::format);
      CHECK(m.read(m.select(m.load(f), m.load(x), m.load(y))) == ref);
      mt::check_single(m, "select", unit::vcu, n, mt::vcu_cost(n, 3 * n), 3);
    }
    {
      auto m = mt::make_machine(s, 32, M::format);
      CHECK(m.read(m.select(m.load(f), m.load(x), c)) == ref_c);
      mt::check_single(m, "select-const", unit::vcu, n, mt::vcu_cost(n, 2 * n), 2);
    }
  }
}

TEST_CASE("logic_and, logic_or, logic_xor on words and logic_not01 on flags", "[vcu]") {
  const auto seed = mt::fresh_seed();
  mt::rng r(seed);
  const int bits = GENERATE(8, 16, 32, 64);
  CAPTURE(seed, bits);
  const word lo = static_cast<word>(mt::lim_min(bits)), hi = static_cast<word>(mt::lim_max(bits));
  for (auto n : mt::lengths_for(4, r)) {
    CAPTURE(n);
    const auto x = r.words(n, lo, hi), y = r.words(n, lo, hi);
    std::vector<word> ref_and(x.size()), ref_or(x.size()), ref_xor(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
      const auto ux = static_cast<std::uint64_t>(x[i]), uy = static_cast<std::uint64_t>(y[i]);
      ref_and[i] = static_cast<word>(ux & uy);
      ref_or[i] = static_cast<word>(ux | uy);
      ref_xor[i] = static_cast<word>(ux ^ uy);
    }
    const std::vector<
        std::tuple<std::string, std::vector<word>,
                   std::function<mmv::word_vec(mmv::machine&, const mmv::word_vec&, const mmv::word_vec&)>>>
        ops = {
            {"and", ref_and, [](mmv::machine& m, auto& a, auto& b) { return m.logic_and(a, b); }},
            {"or", ref_or, [](mmv::machine& m, auto& a, auto& b) { return m.logic_or(a, b); }},
            {"xor", ref_xor, [](mmv::machine& m, auto& a, auto& b) { return m.logic_xor(a, b); }},
        };
    for (const auto& [name, ref, run] : ops) {
      CAPTURE(name);
      auto m = mt::make_machine(4, bits);
      CHECK(m.read(run(m, m.load(x), m.load(y))) == ref);
      mt::check_single(m, name, unit::vcu, n, mt::vcu_cost(n, 2 * n), 2);
    }
    const auto f = r.flags(n, 0.5);
    std::vector<word> ref_not(f.size());
    for (std::size_t i = 0; i < f.size(); ++i) ref_not[i] = f[i] == 0 ? 1 : 0;
    auto m = mt::make_machine(4, bits);
    CHECK(m.read(m.logic_not01(m.load(f))) == ref_not);
    mt::check_single(m, "not", unit::vcu, n, mt::vcu_cost(n, n), 1);
  }
}

// floor(x / 2^k) without shifting: the reference for an arithmetic right shift.
static word floor_div_pow2(word x, int k) {
  const mt::wide p = mt::wide{1} << k, v = x;
  return static_cast<word>(v >= 0 ? v / p : -((-v + p - 1) / p));
}

TEST_CASE("shift_left_bits, shift_right_bits, extract_bit", "[vcu]") {
  const auto seed = mt::fresh_seed();
  mt::rng r(seed);
  const int bits = GENERATE(2, 8, 16, 32, 64);
  CAPTURE(seed, bits);
  const word lo = static_cast<word>(mt::lim_min(bits)), hi = static_cast<word>(mt::lim_max(bits));
  for (auto n : mt::lengths_for(3, r)) {
    for (int k : {0, 1, static_cast<int>(r.uniform(0, bits - 1)), bits - 1}) {
      CAPTURE(n, k);
      // shl: inputs small enough that x * 2^k fits in B bits.
      const auto small = r.words(n, floor_div_pow2(lo, k), floor_div_pow2(hi, k));
      std::vector<word> ref_shl(small.size());
      for (std::size_t i = 0; i < small.size(); ++i)
        ref_shl[i] = static_cast<word>(mt::wide(small[i]) * (mt::wide{1} << k));
      {
        auto m = mt::make_machine(3, bits);
        CHECK(m.read(m.shift_left_bits(m.load(small), k)) == ref_shl);
        mt::check_single(m, "shl", unit::vcu, n, mt::vcu_cost(n, n), 1);
      }
      const auto x = r.words(n, lo, hi);
      std::vector<word> ref_shr(x.size());
      for (std::size_t i = 0; i < x.size(); ++i) ref_shr[i] = floor_div_pow2(x[i], k);
      {
        auto m = mt::make_machine(3, bits);
        CHECK(m.read(m.shift_right_bits(m.load(x), k)) == ref_shr);
        mt::check_single(m, "shr", unit::vcu, n, mt::vcu_cost(n, n), 1);
      }
    }
    // extract_bit: a per-element bit index in 0..B-1; bit k of the two's complement pattern.
    const auto x = r.words(n, lo, hi), k = r.words(n, 0, bits - 1);
    std::vector<word> ref(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
      const auto pattern = static_cast<std::uint64_t>(x[i]);
      ref[i] = static_cast<word>((pattern / (std::uint64_t{1} << k[i])) % 2);
    }
    auto m = mt::make_machine(3, bits);
    CHECK(m.read(m.extract_bit(m.load(x), m.load(k))) == ref);
    mt::check_single(m, "extract-bit", unit::vcu, n, mt::vcu_cost(n, 2 * n), 2);
  }
}
