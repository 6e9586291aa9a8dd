// The one segmented accumulation (harness/reference.hpp: running_sum, walk_segments) against
// independent naive loops on fresh random inputs (seed printed; MMV_TEST_SEED fixes it): walked
// in one piece and in random chunks joined as the kernels' checks join them, int32 wrapping,
// int64 exact up to the word's limits, reals exact where a plain double loop is (dyadic values)
// and within u |S| + n^2 u^2 M of a float128 loop elsewhere; edge cases; the simulator's
// references built on it; the applications' references (SpMV, the two products) against naive loops.
#include "catch.hpp"
#include "test_seed.hpp"

#include "mmvram/harness/reference.hpp"

#include "mmvram/algorithms/applications.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace ref = mmv::reference;

namespace {

// The inclusive segmented sums of x by a naive loop in type W, each passed through `out`.
template <class W, class T, class F, class Out>
auto naive(const std::vector<T>& x, const F* flags, Out out) {
  std::vector<decltype(out(W{}))> r;
  W s{};
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (i == 0 || (flags != nullptr && flags[i] != 0)) s = W{};
    s += static_cast<W>(x[i]);
    r.push_back(out(s));
  }
  return r;
}

// v modulo 2^32 as a two's-complement int32, by arithmetic on int64.
std::int32_t wrap32(std::int64_t v) {
  const std::int64_t m = std::int64_t{1} << 32, r = ((v % m) + m) % m;
  return static_cast<std::int32_t>(r >= m / 2 ? r - m : r);
}

// The walk in one piece: the value at every position.
template <class T, class F>
auto walked(const std::vector<T>& x, const F* flags) {
  std::vector<typename ref::running_sum<T>::value_type> out;
  ref::running_sum<T> acc;
  ref::walk_segments(x.data(), flags, 0, std::ssize(x), acc,
                     [&](std::int64_t, bool, const auto& s) { out.push_back(s.value()); });
  return out;
}

// The walk in chunks [cuts[k], cuts[k+1]) as kernel_walk.hpp does it: each chunk's tail walked
// alone, the carries composed in order (a chunk with a start restarts it), then each chunk walked
// again from its carry.
template <class T, class F>
auto chunked(const std::vector<T>& x, const F* flags, const std::vector<std::int64_t>& cuts) {
  std::vector<typename ref::running_sum<T>::value_type> out(x.size());
  std::vector<ref::running_sum<T>> carries;
  ref::running_sum<T> carry;
  for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
    carries.push_back(carry);
    ref::running_sum<T> tail;
    bool starts = false;
    ref::walk_segments(x.data(), flags, cuts[k], cuts[k + 1], tail,
                       [&](std::int64_t, bool s, const auto&) { starts |= s; });
    if (starts) carry = tail;
    else carry.add(tail);
  }
  for (std::size_t k = 0; k + 1 < cuts.size(); ++k)
    ref::walk_segments(x.data(), flags, cuts[k], cuts[k + 1], carries[k],
                       [&](std::int64_t i, bool, const auto& s) { out[static_cast<std::size_t>(i)] = s.value(); });
  return out;
}

std::vector<std::int64_t> random_cuts(std::mt19937_64& g, std::int64_t n) {
  std::vector<std::int64_t> cuts{0, n};
  const int extra = std::uniform_int_distribution<int>(0, 8)(g);
  for (int k = 0; k < extra; ++k) cuts.push_back(std::uniform_int_distribution<std::int64_t>(0, n)(g));
  std::sort(cuts.begin(), cuts.end());
  return cuts;
}

// Flags of n positions, each a start with probability density (0: one giant segment; 1: all).
template <class F>
std::vector<F> random_flags(std::mt19937_64& g, std::size_t n, double density) {
  std::bernoulli_distribution start(density);
  std::vector<F> f(n);
  for (auto& v : f) v = start(g) ? F(1 + g() % 3) : F(0);  // any nonzero value starts a segment
  return f;
}

constexpr double kDensities[] = {0, 0.001, 0.05, 0.5, 1};

}  // namespace

TEST_CASE("int32: wrap-around, as a naive int64 loop reduced mod 2^32", "[reference]") {
  const auto seed = mmv::test::fresh_seed();
  CAPTURE(seed);
  std::mt19937_64 g(seed);
  std::uniform_int_distribution<std::int32_t> any(INT32_MIN, INT32_MAX);
  for (int trial = 0; trial < 40; ++trial) {
    const auto n = std::uniform_int_distribution<std::size_t>(0, 3000)(g);
    std::vector<std::int32_t> x(n);
    for (auto& v : x) v = trial % 2 ? any(g) : INT32_MAX - static_cast<std::int32_t>(g() % 4);  // wraps often
    const auto flags = random_flags<std::uint8_t>(g, n, kDensities[trial % 5]);
    for (const std::uint8_t* f : {flags.data(), static_cast<const std::uint8_t*>(nullptr)}) {
      const auto want = naive<std::int64_t>(x, f, wrap32);
      CAPTURE(n, trial);
      REQUIRE(walked(x, f) == want);
      REQUIRE(chunked(x, f, random_cuts(g, std::ssize(x))) == want);
    }
  }
  // The edge of the word: INT32_MAX + 1 wraps to INT32_MIN, and back.
  const std::vector<std::int32_t> x{INT32_MAX, 1, -1, INT32_MIN, -1};
  const std::vector<std::int32_t> want{INT32_MAX, INT32_MIN, INT32_MAX, -1, -2};
  CHECK(walked(x, static_cast<const std::uint8_t*>(nullptr)) == want);
}

TEST_CASE("int64: exact wherever the sum fits the word, as a naive __int128 loop", "[reference]") {
  const auto seed = mmv::test::fresh_seed();
  CAPTURE(seed);
  std::mt19937_64 g(seed);
  std::uniform_int_distribution<std::int64_t> big(-(std::int64_t{1} << 50), std::int64_t{1} << 50);
  auto fits = [](__int128 v) {
    REQUIRE(v >= std::numeric_limits<std::int64_t>::min());
    REQUIRE(v <= std::numeric_limits<std::int64_t>::max());
    return static_cast<std::int64_t>(v);
  };
  for (int trial = 0; trial < 40; ++trial) {
    const auto n = std::uniform_int_distribution<std::size_t>(0, 3000)(g);
    std::vector<std::int64_t> x(n);
    for (auto& v : x) v = big(g);
    const auto flags = random_flags<std::int64_t>(g, n, kDensities[trial % 5]);
    const auto want = naive<__int128>(x, flags.data(), fits);
    CAPTURE(n, trial);
    REQUIRE(walked(x, flags.data()) == want);
    REQUIRE(chunked(x, flags.data(), random_cuts(g, std::ssize(x))) == want);
  }
  // Values at the word's limits: every partial sum fits, so every one is exact.
  const std::int64_t hi = std::numeric_limits<std::int64_t>::max(), lo = std::numeric_limits<std::int64_t>::min();
  const std::vector<std::int64_t> x{hi, -1, 1, lo, 1, -1, lo};
  const std::vector<std::int64_t> f{1, 0, 0, 1, 0, 0, 1};
  CHECK(walked(x, f.data()) == std::vector<std::int64_t>{hi, hi - 1, hi, lo, lo + 1, lo, lo});
  CHECK(chunked(x, f.data(), {0, 2, 4, 7}) == walked(x, f.data()));
}

TEST_CASE("reals: exact where a plain double loop is, and one rounding of the exact sum elsewhere", "[reference]") {
  const auto seed = mmv::test::fresh_seed();
  CAPTURE(seed);
  std::mt19937_64 g(seed);
  // Dyadic values k / 256, |k| < 2^20: every partial sum is a double, so the naive loop is exact.
  std::uniform_int_distribution<std::int32_t> k(-(1 << 20), 1 << 20);
  for (int trial = 0; trial < 40; ++trial) {
    const auto n = std::uniform_int_distribution<std::size_t>(0, 3000)(g);
    std::vector<float> xf(n);
    for (auto& v : xf) v = static_cast<float>(k(g)) / 256;
    const std::vector<double> xd(xf.begin(), xf.end());
    const auto flags = random_flags<std::uint8_t>(g, n, kDensities[trial % 5]);
    const auto want = naive<double>(xd, flags.data(), [](double s) { return s; });
    CAPTURE(n, trial);
    REQUIRE(walked(xf, flags.data()) == want);
    REQUIRE(walked(xd, flags.data()) == want);
    REQUIRE(chunked(xf, flags.data(), random_cuts(g, std::ssize(xf))) == want);
  }
  // Cancellation a double loop loses: 1e16 + 1 - 1e16 is 1; float: 2^24 + 1 - 2^24.
  CHECK(walked(std::vector<double>{1e16, 1, -1e16}, static_cast<const std::uint8_t*>(nullptr)).back() == 1);
  CHECK(walked(std::vector<float>{0x1p24f, 1, -0x1p24f}, static_cast<const std::uint8_t*>(nullptr)).back() == 1);
  // Wide exponents: within u |S| + n^2 u^2 M of the exact sum (a float128 loop, itself within n 2^-113 M).
  std::uniform_real_distribution<double> mant(-1, 1);
  std::uniform_int_distribution<int> ex(-40, 40);
  for (int trial = 0; trial < 10; ++trial) {
    const std::size_t n = 2000;
    std::vector<double> x(n);
    for (auto& v : x) v = std::ldexp(mant(g), ex(g));
    const auto flags = random_flags<std::uint8_t>(g, n, kDensities[trial % 5]);
    const auto got = chunked(x, flags.data(), random_cuts(g, std::ssize(x)));
    const auto exact = naive<__float128>(x, flags.data(), [](__float128 s) { return s; });
    double m = 0;
    for (std::size_t i = 0; i < n; ++i) {
      m = (flags[i] != 0 || i == 0 ? 0 : m) + std::fabs(x[i]);
      const double e = static_cast<double>(exact[i]), err = std::fabs(got[i] - e);
      REQUIRE(err <= 0x1p-53 * std::fabs(e) + (double(n) * n * 0x1p-106 + n * 0x1p-112) * m);
    }
  }
}

TEST_CASE("edge cases: empty, one element, all heads, one giant segment", "[reference]") {
  const std::vector<std::int32_t> none;
  CHECK(walked(none, static_cast<const std::uint8_t*>(nullptr)).empty());
  CHECK(chunked(none, static_cast<const std::uint8_t*>(nullptr), {0, 0, 0}).empty());
  CHECK(ref::segmented_sum(std::vector<double>{}, std::vector<std::int64_t>{}).empty());
  CHECK(ref::inclusive_scan(std::vector<std::int64_t>{}).empty());
  const std::vector<std::uint8_t> zero{0};  // position 0 starts a segment whatever its flag holds
  CHECK(walked(std::vector<float>{-2.5f}, zero.data()) == std::vector<double>{-2.5});
  CHECK(ref::segmented_sum(std::vector<std::int64_t>{7}, std::vector<std::int64_t>{0}) == std::vector<std::int64_t>{7});
  const std::vector<std::int32_t> x{5, -3, INT32_MAX, 9};
  const std::vector<std::uint8_t> heads(4, 1), giant(4, 0);
  CHECK(walked(x, heads.data()) == x);
  CHECK(chunked(x, heads.data(), {0, 1, 3, 4}) == x);
  const std::int64_t big = INT32_MAX;
  CHECK(walked(x, giant.data()) == std::vector<std::int32_t>{5, 2, wrap32(2 + big), wrap32(11 + big)});
  CHECK(chunked(x, giant.data(), {0, 1, 1, 2, 4}) == walked(x, giant.data()));
}

TEST_CASE("the simulator's references are the walk: naive loops on random words and reals", "[reference]") {
  const auto seed = mmv::test::fresh_seed();
  CAPTURE(seed);
  std::mt19937_64 g(seed);
  for (int trial = 0; trial < 20; ++trial) {
    const auto n = std::uniform_int_distribution<std::size_t>(0, 2000)(g);
    std::vector<std::int64_t> w(n);
    std::vector<double> r(n);
    for (std::size_t i = 0; i < n; ++i)
      w[i] = static_cast<std::int64_t>(g() % 2001) - 1000, r[i] = static_cast<double>(w[i]) / 8;
    const auto flags = random_flags<std::int64_t>(g, n, kDensities[trial % 5]);
    const auto id = [](auto s) { return s; };
    CHECK(ref::inclusive_scan(w) == naive<std::int64_t>(w, static_cast<const std::int64_t*>(nullptr), id));
    CHECK(ref::segmented_scan(r, flags) == naive<double>(r, flags.data(), id));
    const auto scan = naive<std::int64_t>(w, flags.data(), id);
    std::vector<std::int64_t> sums;  // the scan's value at each segment's last item
    for (std::size_t i = 0; i < n; ++i)
      if (i + 1 == n || flags[i + 1] != 0) sums.push_back(scan[i]);
    CHECK(ref::segmented_sum(w, flags) == sums);
  }
}

namespace {

// A random CSR matrix: up to 30 rows of 0..5 entries each (empty rows included), small integer
// values, so every product and row sum is exact in double and int64.
mmv::csr_matrix random_csr(std::mt19937_64& g) {
  mmv::csr_matrix a;
  a.rows = std::uniform_int_distribution<std::int64_t>(0, 30)(g);
  a.cols = std::uniform_int_distribution<std::int64_t>(1, 20)(g);
  a.row_ptr = {0};
  for (std::int64_t r = 0; r < a.rows; ++r) {
    const int len = std::uniform_int_distribution<int>(0, 5)(g);
    for (int k = 0; k < len; ++k) {
      a.col_idx.push_back(std::uniform_int_distribution<std::int64_t>(0, a.cols - 1)(g));
      a.values.push_back(static_cast<double>(std::uniform_int_distribution<int>(-100, 100)(g)));
    }
    a.row_ptr.push_back(static_cast<std::int64_t>(a.col_idx.size()));
  }
  return a;
}

}  // namespace

TEST_CASE("the applications' references: naive loops on random inputs", "[reference]") {
  const auto seed = mmv::test::fresh_seed();
  CAPTURE(seed);
  std::mt19937_64 g(seed);
  for (int trial = 0; trial < 20; ++trial) {
    const auto a = random_csr(g);
    std::vector<std::int64_t> w(static_cast<std::size_t>(a.cols));
    std::vector<double> v(w.size());
    for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<std::int64_t>(g() % 2001) - 1000, v[i] = static_cast<double>(w[i]) / 8;
    std::vector<std::int64_t> yw(static_cast<std::size_t>(a.rows), 0);
    std::vector<double> yr(yw.size(), 0.0);
    double mag = 0;
    for (std::int64_t r = 0; r < a.rows; ++r)
      for (auto k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
        yw[r] += static_cast<std::int64_t>(a.values[k]) * w[a.col_idx[k]];
        yr[r] += a.values[k] * v[a.col_idx[k]];
        mag += std::fabs(a.values[k] * v[a.col_idx[k]]);
      }
    CHECK(ref::spmv(a, w) == yw);
    CHECK(ref::spmv(a, v) == yr);
    CHECK(ref::spmv_magnitude(a, v) == mag);

    const auto n = std::uniform_int_distribution<std::int64_t>(0, 12)(g);
    std::vector<std::int64_t> x(static_cast<std::size_t>(n * n)), y(x.size());
    for (auto& e : x) e = static_cast<std::int64_t>(g() % 2001) - 1000;
    for (auto& e : y) e = static_cast<std::int64_t>(g() % 2001) - 1000;
    std::vector<std::int64_t> prod(x.size()), mat(x.size(), 0);
    for (std::size_t i = 0; i < x.size(); ++i) prod[i] = x[i] * y[i];
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t k = 0; k < n; ++k) mat[i * n + j] += x[i * n + k] * y[k * n + j];
    CHECK(ref::elementwise_product(x, y) == prod);
    CHECK(ref::matrix_product(x, y, n) == mat);
  }
}

TEST_CASE("the applications' references: empty rows, one element, exact row sums", "[reference]") {
  mmv::csr_matrix a;  // rows 0 and 2 empty, row 1 one entry, row 3 cancelling to 1
  a.rows = 4, a.cols = 2;
  a.row_ptr = {0, 0, 1, 1, 4};
  a.col_idx = {1, 0, 1, 0};
  a.values = {3, 1e16, 1, -1e16};
  CHECK(ref::spmv(a, std::vector<std::int64_t>{1, -2}) == std::vector<std::int64_t>{0, -6, 0, -2});
  // Row 3: 1e16 + 1 - 1e16, which a plain double loop rounds to 0; the exact sum is 1.
  CHECK(ref::spmv(a, std::vector<double>{1, 1}) == std::vector<double>{0, 3, 0, 1});
  CHECK(ref::spmv_magnitude(a, std::vector<double>{1, -2}) == 6 + 1e16 + 2 + 1e16);
  const mmv::csr_matrix empty;
  CHECK(ref::spmv(empty, std::vector<double>{}).empty());
  CHECK(ref::spmv_magnitude(empty, std::vector<double>{}) == 0);
  CHECK(ref::elementwise_product({}, {}).empty());
  CHECK(ref::elementwise_product({-7}, {6}) == std::vector<std::int64_t>{-42});
  CHECK(ref::matrix_product({}, {}, 0).empty());
  CHECK(ref::matrix_product({5}, {-4}, 1) == std::vector<std::int64_t>{-20});
}
