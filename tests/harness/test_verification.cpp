// Verification that can be trusted: the float references are exact up to one final rounding
// (checked against exact integer sums and a float128 recurrence), and a correct run never fails
// verification: every algorithm on fresh random inputs in float32 and float64, up to n = 2^22,
// single long segments, long SpMV rows and decays near 1 (seed printed; MMV_TEST_SEED fixes it).
#include "catch.hpp"
#include "test_seed.hpp"

#include "mmvram/harness/reference.hpp"
#include "mmvram/harness/registry.hpp"

#include <cmath>
#include <random>
#include <vector>

using mmv::real;
using mmv::word;

namespace {

// A run of `name` on `in` with tile size s in format f; returns the outcome.
mmv::algorithm_outcome run(const std::string& name, const mmv::algorithm_input& in, int s, mmv::number_format f) {
  mmv::machine_config c;
  c.s = s;
  c.word_bits = 64;
  c.format = f;
  const auto& e = mmv::find_algorithm(name);
  if (e.iterated_addition_limit) c.iterated_addition_limit = e.iterated_addition_limit(in.n);
  mmv::machine m(c);
  return e.run(m, in);
}

// Random input of `shape` with n elements (chunks of 8 lanes for state passing): reals in
// [lo, 1), segment starts with probability `density`, decays in [a_lo, 1].
mmv::algorithm_input random_input(std::mt19937_64& g, mmv::input_shape shape, std::int64_t n, double density,
                                  double lo = -1, double a_lo = 0.5) {
  mmv::algorithm_input in;
  in.n = n;
  std::uniform_real_distribution<real> x(lo, 1), a(a_lo, 1);
  std::bernoulli_distribution start(density);
  for (std::int64_t i = 0; i < n; ++i) in.reals.push_back(x(g));
  for (std::int64_t i = 0; i < n; ++i) in.flags.push_back(i == 0 || start(g) ? 1 : 0);
  if (shape == mmv::input_shape::decayed)
    for (std::int64_t i = 0; i < n; ++i) in.decays.push_back(std::min<real>(1, a(g)));
  if (shape == mmv::input_shape::lanes) {  // n chunks of 2 x 2 x 2 lanes, log-decays in [log a_lo, 0]
    in.lanes = {2, 2, 2, density > 0.01};
    for (std::int64_t i = n; i < n * in.lanes.lanes(); ++i) in.reals.push_back(x(g));
    for (std::int64_t i = 0; i < n * in.lanes.decay_rows(); ++i) in.log_decays.push_back(std::log(a(g)));
  }
  if (shape == mmv::input_shape::sparse_matrix) {  // rows from the flags, columns uniform
    auto& A = in.matrix;
    for (std::int64_t i = 0; i < n; ++i)
      if (in.flags[i]) A.row_ptr.push_back(i);
    A.row_ptr.push_back(n);
    A.rows = A.cols = static_cast<std::int64_t>(A.row_ptr.size()) - 1;
    for (std::int64_t i = 0; i < n; ++i) A.col_idx.push_back(std::uniform_int_distribution<std::int64_t>(0, A.cols - 1)(g));
    A.values = in.reals;
    in.reals.resize(static_cast<std::size_t>(A.cols));
  }
  return in;
}

void require_verified(const std::string& name, const mmv::algorithm_input& in, int s, mmv::number_format f) {
  const auto o = run(name, in, s, f);
  INFO(name << " n=" << in.n << " s=" << s << " " << mmv::to_string(f) << ": " << o.mismatch << " (max error "
            << o.max_abs_error << ", tolerance " << o.tolerance << ")");
  REQUIRE(o.verified);
}

}  // namespace

TEST_CASE("float references are the exact sums rounded once") {
  const auto seed = mmv::test::fresh_seed();
  CAPTURE(seed);
  std::mt19937_64 g(seed);
  // Values k 2^-30 with |k| < 2^40: the exact prefix sums are integers times 2^-30 (in __int128).
  std::vector<real> x;
  std::vector<word> flags;
  for (int i = 0; i < 20000; ++i) {
    const auto k = std::uniform_int_distribution<std::int64_t>(-(std::int64_t{1} << 40), std::int64_t{1} << 40)(g);
    x.push_back(std::ldexp(static_cast<double>(k), -30) * (i % 7 == 0 ? 0x1p40 : 1));
    flags.push_back(i % 5000 == 0 ? 1 : 0);
  }
  const auto scan = mmv::reference::inclusive_scan(x), segmented = mmv::reference::segmented_scan(x, flags);
  __int128 exact = 0, in_segment = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const auto k = static_cast<__int128>(std::ldexp(x[i], 30));
    exact += k;
    in_segment = (flags[i] ? 0 : in_segment) + k;
    REQUIRE(scan[i] == std::ldexp(static_cast<double>(exact), -30));
    REQUIRE(segmented[i] == std::ldexp(static_cast<double>(in_segment), -30));
  }
  CHECK(mmv::reference::inclusive_scan(std::vector<real>{1e16, 1, -1e16}).back() == 1);
  CHECK(mmv::reference::segmented_sum(std::vector<real>{1e16, 1, -1e16, 3}, std::vector<word>{1, 0, 0, 1}) ==
        std::vector<real>{1, 3});
}

TEST_CASE("the decayed-scan reference matches a float128 recurrence to the last bit") {
  const auto seed = mmv::test::fresh_seed();
  CAPTURE(seed);
  std::mt19937_64 g(seed);
  const std::int64_t n = 1 << 16;
  std::uniform_real_distribution<real> a(0.999, 1), b(-1, 1);
  std::vector<real> as, bs;
  std::vector<word> flags(static_cast<std::size_t>(n), 0);
  for (std::int64_t i = 0; i < n; ++i) as.push_back(a(g)), bs.push_back(b(g));
  const auto h = mmv::reference::decayed_scan(as, bs, flags);
  __float128 q = 0;
  for (std::int64_t j = 0; j < n; ++j) {
    q = (j == 0 ? 0 : as[j] * q) + bs[j];
    const double want = static_cast<double>(q);
    REQUIRE(std::fabs(h[j] - want) <= 0x1p-52 * std::fabs(want));
  }
}

TEST_CASE("a correct float run never fails verification") {
  const auto seed = mmv::test::fresh_seed();
  CAPTURE(seed);
  std::mt19937_64 g(seed);
  for (const auto f : {mmv::number_format::float32, mmv::number_format::float64})
    for (const auto& e : mmv::algorithm_table()) {
      if (!e.float_ok || e.breaks_down) continue;
      for (int k = 0; k < 6; ++k) {
        const std::int64_t n = std::uniform_int_distribution<std::int64_t>(1, 3000)(g);
        const int s = std::vector<int>{2, 3, 4, 16, 64}[std::uniform_int_distribution<int>(0, 4)(g)];
        const double density = std::vector<double>{0, 0.001, 0.05, 0.5}[std::uniform_int_distribution<int>(0, 3)(g)];
        require_verified(e.name, random_input(g, e.shape, n, density, k % 2 ? 0 : -1), s, f);
      }
    }
}

TEST_CASE("long float runs verify: references are exact sums rounded once (2^22 items in one segment; long SpMV rows; decays near 1)") {
  const auto seed = mmv::test::fresh_seed();
  CAPTURE(seed);
  std::mt19937_64 g(seed);
  using mmv::input_shape;
  require_verified("matmul-scan", random_input(g, input_shape::values, 1 << 22, 0, 0), 16, mmv::number_format::float64);
  require_verified("scd", random_input(g, input_shape::segmented, 1 << 19, 0, 0), 16, mmv::number_format::float64);
  require_verified("sscr", random_input(g, input_shape::segmented, 1 << 19, 0, 0), 16, mmv::number_format::float64);
  require_verified("spmv", random_input(g, input_shape::sparse_matrix, 1 << 18, 1e-4, 0), 16, mmv::number_format::float64);
  for (const auto f : {mmv::number_format::float32, mmv::number_format::float64})
    require_verified("decayed-scan-stable", random_input(g, input_shape::decayed, 1 << 16, 0, 0, 0.999), 16, f);
}
