// The one input library's shared rules (mmvram/harness/random_inputs.hpp): the Bernoulli rule of
// segment starts behind both --density and geometric:MEAN, the Irwin-Hall normal, and the
// distribution names read back by parse().
#include "catch.hpp"
#include "test_seed.hpp"

#include "mmvram/harness/random_inputs.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

using mmv::test::fresh_seed;
namespace in = mmv::inputs;

TEST_CASE("bernoulli_flags: flag i is draw i - 1 below p, filled in parallel", "[inputs]") {
  const auto seed = fresh_seed();
  CAPTURE(seed);
  for (std::int64_t n : {0, 1, 2, 1000, 300001})  // the largest is filled by several threads
    for (double p : {0.0, 0.03, 0.5, 1.0}) {
      CAPTURE(n, p);
      in::stream d(seed), serial(seed);
      std::vector<std::uint8_t> f(static_cast<std::size_t>(n));
      in::bernoulli_flags(d, f.data(), n, p);
      bool same = true;
      for (std::int64_t i = 0; i < n; ++i) same = same && f[i] == (i == 0 || serial.unit() < p ? 1 : 0);
      CHECK(same);
      CHECK(d.next() == serial.next());  // d moved past exactly n - 1 draws
    }
}

TEST_CASE("--density's flags are bernoulli_flags widened", "[inputs]") {
  const auto seed = fresh_seed();
  CAPTURE(seed);
  in::stream a(seed), b(seed);
  std::vector<std::uint8_t> f(5000);
  in::bernoulli_flags(a, f.data(), 5000, 0.05);
  CHECK(in::bounded_flags(b, 5000, 0.05) == std::vector<mmv::word>(f.begin(), f.end()));
  CHECK(a.next() == b.next());
}

TEST_CASE("geometric:MEAN starts a segment at about one position in MEAN", "[inputs]") {
  const auto seed = fresh_seed();
  CAPTURE(seed);
  const std::int64_t n = 1 << 20;
  std::vector<std::uint8_t> f(n);
  for (std::int64_t mean : {1, 32, 1024}) {
    in::fill_flags({in::distribution::kind::geometric, mean}, f.data(), n, seed);
    const double expected = 1 + double(n - 1) / double(mean), got = double(in::count_segments(f.data(), n));
    CAPTURE(mean, got);
    CHECK(std::fabs(got - expected) <= 6 * std::sqrt(expected) + 1);
  }
}

TEST_CASE("first_flag_0 parses to the distribution standard_distributions() lists", "[inputs]") {
  const auto parsed = in::distribution::parse("first_flag_0");
  REQUIRE(parsed);
  CHECK(parsed->mean == 32);
  for (const auto& d : in::standard_distributions())
    if (d.k == in::distribution::kind::first_flag_0) CHECK(d.mean == parsed->mean);
  std::vector<std::uint8_t> f(4096);
  in::fill_flags(*parsed, f.data(), 4096, fresh_seed());
  CHECK(f[0] == 0);
  CHECK(in::count_segments(f.data(), 4096) < 1000);  // geometric:32, not every position
}

TEST_CASE("normal_sum12 is the sum of 12 units minus 6, about N(0, 1)", "[inputs]") {
  const auto seed = fresh_seed();
  CAPTURE(seed);
  in::stream d(seed), by_hand(seed);
  double z = -6;
  for (int k = 0; k < 12; ++k) z += by_hand.unit();
  CHECK(in::normal_sum12(d) == z);
  double sum = 0, squares = 0;
  const int count = 100000;
  for (int i = 0; i < count; ++i) {
    const double x = in::normal_sum12(d);
    CHECK(std::fabs(x) <= 6);
    sum += x, squares += x * x;
  }
  CHECK(std::fabs(sum / count) < 0.02);
  CHECK(std::fabs(squares / count - 1) < 0.03);
}
