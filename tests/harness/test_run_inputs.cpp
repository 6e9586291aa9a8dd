// The random input of one run (mmvram/harness/run_inputs.hpp), checked against its contract on
// random seeds, sizes and widths: default_max_value is the documented formula;
// every shape's arrays have their lengths, ranges, 0/1 flags and (float32) held values; the
// distribution's flags, the BigBird pattern and the state-passing problem are the library's.
#include "catch.hpp"
#include "test_seed.hpp"

#include "mmvram/harness/run_inputs.hpp"
#include "mmvram/harness/sparse_inputs.hpp"
#include "mmvram/harness/state_passing_inputs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

using mmv::test::fresh_seed;
namespace in = mmv::inputs;
using mmv::input_shape;
using mmv::number_format;

namespace {

using wide = __int128;
wide top(int bits) { return (wide{1} << (bits - 1)) - 1; }

// The largest k with k * k <= v (v >= 0), in exact integers.
wide isqrt(wide v) {
  wide lo = 0, hi = wide{1} << 32;
  while (lo < hi) {
    const wide mid = (lo + hi + 1) / 2;
    if (mid * mid <= v) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

bool flags_ok(const std::vector<mmv::word>& f, std::int64_t n, double density) {
  if (static_cast<std::int64_t>(f.size()) != n || (n > 0 && f[0] != 1)) return false;
  for (std::size_t i = 1; i < f.size(); ++i)
    if (!(f[i] == 0 || f[i] == 1) || (density == 0 && f[i]) || (density == 1 && !f[i])) return false;
  return true;
}

template <class T>
bool within(const std::vector<T>& v, T lo, T hi) {
  for (const T x : v)
    if (!(x >= lo && x <= hi)) return false;
  return true;
}

bool float32_held(const std::vector<double>& v) {
  for (const double x : v)
    if (static_cast<double>(static_cast<float>(x)) != x) return false;
  return true;
}

}  // namespace

TEST_CASE("default_max_value is docs/tool.md's formula, exact at every width", "[inputs]") {
  in::stream r(fresh_seed());
  for (int round = 0; round < 4000; ++round) {
    const int bits = static_cast<int>(r.integer(8, 64));
    const wide n = r.integer(1, round % 2 ? 1000 : 1000000), side = n % 100 + 1;
    CAPTURE(bits, static_cast<std::int64_t>(n));
    const wide t = top(bits);
    const wide want[] = {std::clamp<wide>(t / n, 1, 100), isqrt(t), std::max<wide>(1, isqrt(t / (side * side * side))),
                         std::clamp<wide>(isqrt(t / n), 1, 100)};
    const wide got[] = {in::default_max_value(input_shape::values, static_cast<std::int64_t>(n), bits),
                        in::default_max_value(input_shape::vector_pair, static_cast<std::int64_t>(n), bits),
                        in::default_max_value(input_shape::matrix_pair, static_cast<std::int64_t>(side), bits),
                        in::default_max_value(input_shape::sparse_matrix, static_cast<std::int64_t>(n), bits)};
    for (int k = 0; k < 4; ++k) {
      CAPTURE(k);
      CHECK(got[k] == want[k]);
    }
    CHECK(in::default_max_value(input_shape::segmented, static_cast<std::int64_t>(n), bits) == got[0]);
  }
}

TEST_CASE("random_run_input draws every shape's arrays within their contract", "[inputs]") {
  const auto seed = fresh_seed();
  in::stream r(seed);
  CAPTURE(seed);
  for (const input_shape shape : {input_shape::values, input_shape::segmented, input_shape::decayed,
                                  input_shape::sparse_matrix, input_shape::vector_pair, input_shape::matrix_pair})
    for (const number_format f : {number_format::integer, number_format::float32, number_format::float64}) {
      const auto& sh = mmv::facts_of(shape);
      in::run_draw d;
      d.n = sh.square ? r.integer(0, 12) : r.integer(0, 3000);
      d.density = std::vector<double>{0.0, 0.05, 1.0}[static_cast<std::size_t>(r.integer(0, 2))];
      d.seed = r.next(), d.signed_values = r.integer(0, 1) == 1;
      const int bits = static_cast<int>(r.integer(16, 64));
      CAPTURE(static_cast<int>(shape), static_cast<int>(f), d.n, d.density, d.signed_values, bits);
      const mmv::algorithm_input a = in::random_run_input(shape, d, f, bits);
      const mmv::algorithm_input b = in::random_run_input(shape, d, f, bits);
      CHECK((a.words == b.words && a.reals == b.reals && a.flags == b.flags && a.matrix.col_idx == b.matrix.col_idx));
      const std::int64_t items = sh.matrix ? a.matrix.cols : sh.square ? d.n * d.n : d.n;
      const std::int64_t m = in::default_max_value(shape, sh.matrix ? a.n : d.n, bits);
      const std::int64_t lo = d.signed_values ? -m : 0;
      if (f == number_format::integer) {
        CHECK(static_cast<std::int64_t>(a.words.size()) == items);
        CHECK(within<mmv::word>(a.words, lo, m));
      } else {
        CHECK(static_cast<std::int64_t>(a.reals.size()) == items);
        CHECK(within(a.reals, d.signed_values ? -1.0 : 0.0, std::nextafter(1.0, 0.0)));
        if (f == number_format::float32) CHECK(float32_held(a.reals));
      }
      if (sh.flags) CHECK(flags_ok(a.flags, d.n, d.density));
      if (sh.decays) CHECK((a.decays.size() == a.flags.size() && within(a.decays, 0.5, 1.0)));
      if (sh.second) CHECK((static_cast<std::int64_t>(a.words2.size()) == items && within<mmv::word>(a.words2, lo, m)));
      if (!sh.matrix) continue;
      const auto& x = a.matrix;
      CHECK((a.n == d.n && x.rows == x.cols && x.row_ptr.front() == 0 && x.row_ptr.back() == d.n));
      for (std::size_t k = 1; k < x.row_ptr.size(); ++k) CHECK(x.row_ptr[k - 1] < std::max<std::int64_t>(x.row_ptr[k], 1));
      CHECK(within<std::int64_t>(x.col_idx, 0, x.cols - 1));
      if (f == number_format::integer)
        for (const double v : x.values) CHECK((v == std::trunc(v) && v >= static_cast<double>(lo) && v <= static_cast<double>(m)));
      if (d.density == 1) CHECK(x.rows == d.n);
    }
}

TEST_CASE("random_run_input takes a distribution's flags, BigBird's pattern and the state-passing problem", "[inputs]") {
  const auto seed = fresh_seed();
  CAPTURE(seed);
  in::run_draw d;
  d.n = 4096, d.seed = seed, d.dist = in::distribution::parse("geometric:32");
  CHECK(in::random_run_input(input_shape::segmented, d, number_format::integer, 32).flags ==
        in::distribution_flags(*d.dist, d.n, seed));
  d.dist.reset();
  d.bigbird = {64, 2};
  const mmv::csr_matrix pattern = mmv::bigbird_matrix(d.n, 64, 2, 1, 2, seed);
  const auto big = in::random_run_input(input_shape::sparse_matrix, d, number_format::integer, 32);
  const std::int64_t m = in::default_max_value(input_shape::sparse_matrix, pattern.nonzeros(), 32);
  CHECK((big.matrix.row_ptr == pattern.row_ptr && big.matrix.col_idx == pattern.col_idx && big.n == pattern.nonzeros()));
  bool rounded = big.matrix.values.size() == pattern.values.size();
  for (std::size_t k = 0; rounded && k < pattern.values.size(); ++k)
    rounded = big.matrix.values[k] == std::round(pattern.values[k] * static_cast<double>(m));
  CHECK(rounded);
  CHECK(static_cast<std::int64_t>(big.words.size()) == d.n);
  d.bigbird.clear(), d.n = 37, d.density = 0.3, d.lanes = mmv::state_shape{3, 2, 4, false};
  const auto p = in::random_state_passing(d.n, d.lanes, d.density, seed);
  const auto lanes = in::random_run_input(input_shape::lanes, d, number_format::float64, 64);
  bool absolute = lanes.reals.size() == p.local.size();
  for (std::size_t k = 0; absolute && k < p.local.size(); ++k) absolute = lanes.reals[k] == std::fabs(p.local[k]);
  CHECK(absolute);
  CHECK((lanes.log_decays == p.log_decay && lanes.flags == std::vector<mmv::word>(p.starts.begin(), p.starts.end())));
  d.signed_values = true;
  CHECK(in::random_run_input(input_shape::lanes, d, number_format::float64, 64).reals == p.local);
}
