// Shared helpers of the simulator-core tests: seeded random inputs (seed printed, or fixed by
// the MMV_TEST_SEED environment variable), the three arithmetic modes as types, the cost
// definitions restated as plain formulas, and a check of one retired instruction.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "test_seed.hpp"
#include "mmvram/model/machine.hpp"

namespace mt {

using mmv::real;
using mmv::word;
using wide = __int128;

using mmv::test::fresh_seed;  // a fresh seed per call, or MMV_TEST_SEED when set

struct rng {
  explicit rng(std::uint64_t seed) : g(seed) {}
  std::mt19937_64 g;
  word uniform(word lo, word hi) { return std::uniform_int_distribution<word>(lo, hi)(g); }
  double uniform_real(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(g); }
  std::vector<word> words(std::int64_t n, word lo, word hi) {
    std::vector<word> v(static_cast<std::size_t>(n));
    for (auto& x : v) x = uniform(lo, hi);
    return v;
  }
  std::vector<word> flags(std::int64_t n, double p = 0.3) {
    std::vector<word> v(static_cast<std::size_t>(n));
    for (auto& x : v) x = std::bernoulli_distribution(p)(g) ? 1 : 0;
    return v;
  }
  std::vector<real> reals(std::int64_t n, double lo, double hi) {
    std::vector<real> v(static_cast<std::size_t>(n));
    for (auto& x : v) x = uniform_real(lo, hi);
    return v;
  }
};

// B-bit two's complement limits, computed independently of the model (in 128 bits).
inline wide lim_min(int bits) { return -(wide{1} << (bits - 1)); }
inline wide lim_max(int bits) { return (wide{1} << (bits - 1)) - 1; }

inline std::string to_dec(wide v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  std::string d;
  while (v != 0) {
    const int r = static_cast<int>(v % 10);
    d.insert(d.begin(), static_cast<char>('0' + (r < 0 ? -r : r)));
    v /= 10;
  }
  return negative ? "-" + d : d;
}

// The three arithmetic modes, as types for TEMPLATE_TEST_CASE. `calc` is the type a real
// machine of that mode computes in; `rnd` rounds a double to the mode's precision.
struct int_mode {
  using T = word;
  using calc = word;
  static constexpr mmv::number_format format = mmv::number_format::integer;
  static constexpr const char* name = "integer";
  static std::vector<T> draw(rng& r, std::int64_t n) { return r.words(n, -1000000, 1000000); }
  static T rnd(T x) { return x; }
};
struct f64_mode {
  using T = real;
  using calc = double;
  static constexpr mmv::number_format format = mmv::number_format::float64;
  static constexpr const char* name = "float64";
  static std::vector<T> draw(rng& r, std::int64_t n) { return r.reals(n, -100.0, 100.0); }
  static T rnd(double x) { return x; }
};
struct f32_mode {
  using T = real;
  using calc = float;
  static constexpr mmv::number_format format = mmv::number_format::float32;
  static constexpr const char* name = "float32";
  // float32-representable draws, so loading them changes nothing.
  static std::vector<T> draw(rng& r, std::int64_t n) {
    auto v = r.reals(n, -100.0, 100.0);
    for (auto& x : v) x = static_cast<float>(x);
    return v;
  }
  static T rnd(double x) { return static_cast<double>(static_cast<float>(x)); }
};

inline mmv::machine make_machine(int s, int bits = 32, mmv::number_format f = mmv::number_format::integer,
                                 bool dag = true, bool trace = false) {
  mmv::machine_config c;
  c.s = s;
  c.word_bits = bits;
  c.format = f;
  c.record_dag = dag;
  c.record_trace = trace;
  return mmv::machine(c);
}

// The instruction table's prices restated field by field (checked against price_of in test_vcu_arith).
inline mmv::cost vcu_cost(std::int64_t m, std::int64_t reads) { return mmv::cost{1, m, 0, 0, reads, m}; }
inline mmv::cost revspec_cost(std::int64_t m, std::int64_t s) { return mmv::cost{1, m * s, 0, 0, 2 * m, m}; }
inline mmv::cost mmu_cost(std::int64_t rows, std::int64_t s) {
  const std::int64_t tiles = rows / s + (rows % s != 0 ? 1 : 0);
  return mmv::cost{1, rows * s * s, tiles, rows * s * s, rows * s + s * s, rows * s};
}
inline mmv::cost scalar_cost(std::int64_t m) { return mmv::cost{0, 0, 0, 0, m, m}; }

inline std::string show(const mmv::cost& c) {
  std::ostringstream o;
  o << "{steps " << c.steps << ", work " << c.work << ", tiles " << c.tile_products << ", macs " << c.multiply_adds
    << ", read " << c.words_read << ", written " << c.words_written << "}";
  return o.str();
}

// Checks that the machine retired exactly `loads` scalar loads and then one instruction `op`
// on `where` with output length `length` and cost `expected`: the record, the per-unit totals,
// the region totals and the depth (1: every input came from the free scalar unit).
inline void check_single(const mmv::machine& m, const std::string& op, mmv::unit where, std::int64_t length,
                         const mmv::cost& expected, std::int64_t loads) {
  const auto& recs = m.costs().records();
  REQUIRE(static_cast<std::int64_t>(recs.size()) == loads + 1);
  for (std::int64_t i = 0; i < loads; ++i) REQUIRE(recs[static_cast<std::size_t>(i)].where == mmv::unit::scalar);
  const auto& r = recs.back();
  INFO("op " << r.op << ", recorded " << show(r.price) << ", expected " << show(expected));
  CHECK(r.op == op);
  CHECK(r.where == where);
  CHECK(r.length == length);
  CHECK(r.price == expected);
  CHECK(r.depth == 1);
  CHECK(r.region.empty());
  const auto& t = m.costs().totals();
  CHECK(t.scalar_ops == loads);
  CHECK((where == mmv::unit::vcu ? t.vcu : t.mmu) == expected);
  CHECK((where == mmv::unit::vcu ? t.mmu : t.vcu) == mmv::cost{});
  CHECK(t.total() == expected);
  CHECK(m.costs().depth() == 1);
  REQUIRE(m.costs().by_region().count("") == 1);
  CHECK(m.costs().by_region().at("").scalar_ops == loads);
  CHECK(m.costs().by_region().at("").total() == expected);
}

// Lengths worth trying for an element-wise instruction on a machine with tile size s.
inline std::vector<std::int64_t> lengths_for(int s, rng& r) {
  return {0, 1, s - 1, s, s + 1, 3 * s + 2, r.uniform(2, 200)};
}

}  // namespace mt
