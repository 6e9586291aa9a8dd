// Element-wise integer product in O(log_s B) steps: exact against 128-bit products on fresh
// random operands of every sign and magnitude mix, the extreme words (−2^(B−1), 2^(B−1) − 1),
// width_error exactly when a product leaves B bits, exact ledger counts and the step bound.
#include "catch.hpp"
#include "test_seed.hpp"

#include "cost_check.hpp"

#include "mmvram/algorithms/applications.hpp"

#include <cstdio>
#include <random>
#include <vector>

using mmv::word;
using wide = __int128;

using mmv::test::fresh_seed;

namespace {

mmv::machine make(int s, int bits, bool trace = false) {
  mmv::machine_config c;
  c.s = s;
  c.word_bits = bits;
  c.record_dag = false;
  c.record_trace = trace;
  return mmv::machine(c);
}

wide lo(int bits) { return -(wide{1} << (bits - 1)); }
wide hi(int bits) { return (wide{1} << (bits - 1)) - 1; }

// Pairs whose product fits B bits: a random split of the B−2 magnitude bits between a and b,
// random signs, plus the extreme words paired with factors that keep the product in range.
void draw_pairs(std::mt19937_64& g, int bits, std::int64_t n, std::vector<word>& a, std::vector<word>& b) {
  const word wmin = static_cast<word>(lo(bits)), wmax = static_cast<word>(hi(bits));
  std::vector<std::pair<word, word>> extremes{{0, 0},     {wmin, 0}, {0, wmin}, {wmin, 1}, {1, wmin},
                                              {wmax, 1},  {wmax, -1}, {-1, wmax}, {-1, -1}, {1, -1}};
  if (bits >= 3) {  // −2^(B−2)·2 = −2^(B−1), both orders
    extremes.emplace_back(static_cast<word>(-(wide{1} << (bits - 2))), 2);
    extremes.emplace_back(2, static_cast<word>(-(wide{1} << (bits - 2))));
  }
  for (std::int64_t i = 0; i < n; ++i) {
    if (i < static_cast<std::int64_t>(extremes.size()) && std::bernoulli_distribution(0.5)(g)) {
      a.push_back(extremes[i].first);
      b.push_back(extremes[i].second);
      continue;
    }
    const int ka = std::uniform_int_distribution<int>(0, bits - 2)(g), kb = bits - 2 - ka;
    const auto magnitude = [&](int k) { return static_cast<word>(g() & ((std::uint64_t{1} << k) - 1)); };
    const word x = magnitude(ka), y = magnitude(kb);
    a.push_back(g() % 2 ? -x : x);
    b.push_back(g() % 2 ? -y : y);
  }
}

// The algorithm's addresses are B-bit words too: lanes < P = ceil((B−1)/s)·s, owners < n, and
// (when there is more than one level, the first re-pads) indices up to n·ceil((B−1)/s) − 1.
bool addresses_fit(std::int64_t n, int s, int bits) {
  const wide top = hi(bits), per = (bits - 2) / s * s + s, digits = per / s;
  return per - 1 <= top && n - 1 <= top && (digits == 1 || n * digits - 1 <= top);
}

std::vector<word> product(const std::vector<word>& a, const std::vector<word>& b) {
  std::vector<word> p;
  for (std::size_t i = 0; i < a.size(); ++i) p.push_back(static_cast<word>(wide{a[i]} * b[i]));
  return p;
}

}  // namespace

TEST_CASE("elementwise product is exact for every sign and width", "[integer-product]") {
  const auto seed = fresh_seed();
  std::mt19937_64 g(seed);
  const int s = GENERATE(2, 3, 4, 8, 16, 128);
  const int bits = GENERATE(2, 5, 8, 16, 32, 64);
  CAPTURE(seed, s, bits);
  for (const std::int64_t n : {std::int64_t{1}, std::int64_t{12}, std::int64_t{std::uniform_int_distribution<int>(1, 40)(g)}}) {
    CAPTURE(n);
    if (!addresses_fit(n, s, bits)) continue;
    std::vector<word> a, b;
    draw_pairs(g, bits, n, a, b);
    auto m = make(s, bits);
    const auto out = m.read(mmv::elementwise_product(m, m.load(a), m.load(b)));
    CHECK(out == product(a, b));
  }
}

TEST_CASE("elementwise product raises width_error exactly when a product leaves B bits", "[integer-product]") {
  const int s = GENERATE(2, 4, 16);
  const int bits = GENERATE(8, 32, 64);
  CAPTURE(s, bits);
  const word wmin = static_cast<word>(lo(bits)), wmax = static_cast<word>(hi(bits));
  const word half = static_cast<word>(wide{1} << (bits / 2));
  const std::vector<std::pair<word, word>> overflowing{
      {half, half}, {wmin, -1}, {-1, wmin}, {wmin, wmin}, {wmax, 2}, {-2, wmax}, {wmax, wmax},
      {static_cast<word>(wide{1} << (bits - 2)), 2}, {2, wmin}, {wmin, 2}};
  for (const auto& [x, y] : overflowing) {
    CAPTURE(static_cast<long long>(x), static_cast<long long>(y));
    // Known model defect (reported): with B = 64 the MMU's overflow check computes |−2^63|,
    // which wraps, so 2·(−2^63) on the MMU wraps silently instead of raising width_error.
    auto m = make(s, bits);
    // The overflowing pair sits between two harmless ones.
    CHECK_THROWS_AS(mmv::elementwise_product(m, m.load(std::vector<word>{3, x, -1}), m.load(std::vector<word>{-1, y, 0})),
                    mmv::width_error);
  }
  auto m = make(s, bits);  // products of exactly −2^(B−1) and 2^(B−1) − 1 fit
  const std::vector<word> a{wmin, static_cast<word>(-(wide{1} << (bits - 2))), wmax, -wmax};
  const std::vector<word> b{1, 2, 1, -1};
  CHECK(m.read(mmv::elementwise_product(m, m.load(a), m.load(b))) == product(a, b));
}

TEST_CASE("elementwise product: bad inputs", "[integer-product]") {
  auto m = make(4, 32);
  CHECK_THROWS_AS(mmv::elementwise_product(m, m.load(std::vector<word>{1, 2}), m.load(std::vector<word>{1})), mmv::model_error);
  CHECK(mmv::elementwise_product(m, mmv::word_vec{}, mmv::word_vec{}).size() == 0);
  // Addresses are words: 128 bit lanes per element do not fit B = 5 (lane 127 > 15).
  auto narrow = make(128, 5);
  REQUIRE(!addresses_fit(1, 128, 5));
  CHECK_THROWS_AS(mmv::elementwise_product(narrow, narrow.load(std::vector<word>{3}), narrow.load(std::vector<word>{2})),
                  mmv::width_error);
}

TEST_CASE("elementwise product: exact ledger counts and the O(log_s B) step bound", "[integer-product][cost]") {
  const int s = GENERATE(2, 3, 4, 8, 16, 128);
  for (const int bits : {2, 3, 8, 17, 32, 33, 64}) {
    for (const std::int64_t n : {0, 1, 7, 50}) {
      CAPTURE(s, bits, n);
      if (!addresses_fit(n, s, bits)) continue;
      std::mt19937_64 g(static_cast<std::uint64_t>(n * 1000 + bits * 10 + s));
      std::vector<word> a, b;
      draw_pairs(g, bits, n, a, b);
      auto m = make(s, bits);
      mmv::elementwise_product(m, m.load(a), m.load(b));
      const auto p = mmv::elementwise_product_predicted_cost(n, s, bits);
      mmv::test::check_ledger_equals(m, p);
      if (n == 0) continue;
      // L = max(1, ceil(log_s(B−1))) MMU levels; R re-pads, one after the first level and one
      // per later level l < L whose digit count ceil((B−1)/s^l) is not a multiple of s; VCU
      // steps 22 + L + 7R, depth 11 + 2L + 2R.
      std::int64_t levels = 1, repads = 0;
      for (std::int64_t cap = s; cap < bits - 1; cap *= s) {
        ++levels;
        repads += cap == s || (bits - 1 + cap - 1) / cap % s != 0 ? 1 : 0;
      }
      CHECK(p.mmu_steps == levels);
      CHECK(p.vcu_steps == 22 + levels + 7 * repads);
      CHECK(p.depth == 11 + 2 * levels + 2 * repads);
    }
  }
}

TEST_CASE("worked example (docs/algorithms/integer_product.md)", "[integer-product][example]") {
  // a is the seeds' example vector; b mixes signs, zero and the extreme word of B = 8.
  const std::vector<word> a{2, 2, 3, 3, 1, 3, 1, 2}, b{-3, 5, 7, -1, 0, 4, -6, -128};
  auto m = make(4, 8, true);
  std::vector<word> a_fit = a;
  a_fit[7] = 1;  // 2·(−128) leaves 8 bits; 1·(−128) fits
  const auto out = m.read(mmv::elementwise_product(m, m.load(a_fit), m.load(b)));
  std::printf("integer product worked example, s = 4, B = 8 (first 16 values of each instruction):\n");
  for (const auto& r : m.costs().records())
    if (r.where != mmv::unit::scalar) std::printf("  %-34s %-14s %s\n", r.region.c_str(), r.op.c_str(), r.preview.c_str());
  CHECK(out == product(a_fit, b));
  auto m2 = make(4, 8);
  CHECK_THROWS_AS(mmv::elementwise_product(m2, m2.load(a), m2.load(b)), mmv::width_error);
}
