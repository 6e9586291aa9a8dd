// The one per-element semantics of the VCU (vcu_semantics.hpp), which both backends compute
// with: evaluated at compile time (it stays constexpr, as device code needs), REVSPEC's element
// rule against its definition on random inputs, and the backend registry that names the
// backends (backend.hpp).
#include "catch.hpp"
#include "model_test_util.hpp"
#include "mmvram/model/backend.hpp"
#include "mmvram/model/vcu_semantics.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using mmv::op_code;
namespace vcu = mmv::vcu;

using W = vcu::word;
constexpr W big = std::numeric_limits<vcu::word>::max();

static_assert(vcu::word_lo(2) == -2 && vcu::word_hi(2) == 1);
static_assert(vcu::word_lo(64) == std::numeric_limits<vcu::word>::min() && vcu::word_hi(64) == big);
static_assert(vcu::fits(vcu::binary(op_code::add, W{3}, W{4}), 4) && !vcu::fits(vcu::binary(op_code::add, W{4}, W{4}), 4));
static_assert(vcu::binary(op_code::add, big, big) == vcu::wide(big) * 2);  // exact, never wrapped
static_assert(vcu::binary(op_code::sub_const, W{5}, W{7}) == -2 && vcu::binary(op_code::logic_xor, W{6}, W{3}) == 5);
static_assert(vcu::unary(op_code::neg, std::numeric_limits<vcu::word>::min()) == vcu::wide(big) + 1);
static_assert(vcu::unary(op_code::logic_not, vcu::word{1}) == 0);
static_assert(vcu::compare(op_code::le_const, 2.0, 2.0) && !vcu::compare(op_code::ne, 3, 3));
static_assert(vcu::select(vcu::word{0}, 1.5, 2.5) == 2.5);
static_assert(vcu::shift_bits(op_code::shift_left_bits, -3, 2) == -12 && vcu::shift_bits(op_code::shift_right_bits, -3, 1) == -2);
static_assert(vcu::is_bit_index(31, 32) && !vcu::is_bit_index(32, 32) && vcu::extract_bit(5, 2) == 1);
static_assert(vcu::iota(5, -2, 3, 7) == 1 && vcu::lane_index(3, 7) == 1);
static_assert(vcu::rounded(0.1, true) == static_cast<double>(0.1f) && vcu::rounded(0.1, false) == 0.1);
static_assert(vcu::is_binary<vcu::word>(op_code::logic_and) && !vcu::is_binary<vcu::real>(op_code::logic_and));
static_assert(vcu::is_binary<vcu::real>(op_code::mul_const) && !vcu::is_binary<vcu::word>(op_code::mul));
static_assert(vcu::is_unary<vcu::real>(op_code::exp) && !vcu::is_unary<vcu::word>(op_code::exp));
constexpr W spec[] = {5, 7, 100, 130};
static_assert(vcu::revspec(spec, 0, 2, 3, 8, false).value == 123 && vcu::revspec(spec, 0, -1, 3, 8, false).value == 130);
static_assert(!vcu::revspec(spec, 0, 1, 3, 7, false).fits && vcu::revspec(spec, 0, 1, 3, 7, false).exact == 125);

}  // namespace

TEST_CASE("min and max of reals follow std::min and std::max where an operand is NaN", "[vcu]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(vcu::binary(op_code::min, 1.0, nan) == 1.0);
  CHECK(vcu::binary(op_code::max, 1.0, nan) == 1.0);
  CHECK(std::isnan(vcu::binary(op_code::min, nan, 1.0)));
}

namespace {
// REVSPEC's element i by docs/model.md, written out: j the last flag in i's block at or before
// i; a[i] - a[j - 1] when j is past the block's start (checked against B bits with the test's
// own limits, or rounded through float), else a[i] as it is.
// Returns whether the element fit.
template <class T>
bool expect_revspec_element(const std::vector<T>& a, const std::vector<W>& f, std::int64_t s, int bits, bool float32,
                            std::int64_t i) {
  const std::int64_t block = i - i % s;
  std::int64_t j = -1;
  for (std::int64_t t = block; t <= i; ++t)
    if (f[static_cast<std::size_t>(t)] == 1) j = t;
  const auto got = vcu::revspec(a.data(), block, j, i, bits, float32);
  const T x = a[static_cast<std::size_t>(i)];
  CAPTURE(i, j, block);
  if (j <= block) {
    CHECK(got.fits);
    CHECK(got.value == x);
    return got.fits;
  }
  const T before = a[static_cast<std::size_t>(j - 1)];
  if constexpr (std::is_same_v<T, W>) {
    const vcu::wide d = vcu::wide(x) - vcu::wide(before);
    const bool fits = d >= mt::lim_min(bits) && d <= mt::lim_max(bits);
    CHECK(got.fits == fits);
    CHECK(got.exact == d);
    CHECK(got.value == (fits ? static_cast<W>(d) : 0));
  } else {
    CHECK(got.fits);
    CHECK(got.value == (float32 ? static_cast<double>(static_cast<float>(x - before)) : x - before));
  }
  return got.fits;
}
}  // namespace

TEST_CASE("revspec's element rule follows its definition, width overflow and rounding included", "[vcu]") {
  const auto seed = mt::fresh_seed();
  mt::rng r(seed);
  CAPTURE(seed);
  std::int64_t overflows = 0;
  for (int round = 0; round < 200; ++round) {
    const std::int64_t s = r.uniform(2, 17), n = r.uniform(1, 200);
    const int bits = static_cast<int>(r.uniform(2, 64));
    const auto f = r.flags(n, 0.3);
    const auto a = r.words(n, static_cast<W>(mt::lim_min(bits)), static_cast<W>(mt::lim_max(bits)));
    const auto x = r.reals(n, -1e6, 1e6);
    CAPTURE(s, n, bits);
    for (std::int64_t i = 0; i < n; ++i) {
      overflows += !expect_revspec_element(a, f, s, bits, false, i);
      expect_revspec_element(x, f, s, 64, round % 2 == 0, i);
    }
  }
  CHECK(overflows > 0);  // full-range words: some differences leave B bits
}

TEST_CASE("revspec passes an element with no flag past its block's start through unchanged", "[vcu]") {
  // Only values the machine holds reach REVSPEC, so a passed-through element is neither checked
  // nor rounded: here a word outside 8 bits and a real that float32 does not hold pass as given.
  const std::vector<W> a = {1000, 2};
  CHECK(vcu::revspec(a.data(), 0, -1, 0, 8, false).value == 1000);
  CHECK(vcu::revspec(a.data(), 0, 0, 1, 8, false).value == 2);
  const std::vector<double> x = {0.1, 0.35};
  CHECK(vcu::revspec(x.data(), 0, 0, 1, 64, true).value == 0.35);
  CHECK(vcu::revspec(x.data(), 0, 1, 1, 64, true).value == static_cast<double>(static_cast<float>(0.35 - 0.1)));
}

TEST_CASE("the backend registry names every backend once, built in or not", "[backend]") {
  CHECK(mmv::backend_names() == std::vector<std::string>{"simulate", "cuda"});
  CHECK(mmv::backend_choices() == "simulate or cuda");
  CHECK(mmv::backend_choices(true) == "cuda");
  CHECK(mmv::backend_help() == "simulate (CPU) | cuda (GPU, timed)");
  CHECK(!mmv::backend_times("simulate"));
  CHECK(mmv::backend_times("cuda"));
  CHECK_THROWS_AS(mmv::register_backend("tpu", nullptr), std::logic_error);
  mmv::machine_config c;
  c.backend = "tpu";
  CHECK_THROWS_WITH(mmv::make_backend(c), "unknown backend 'tpu' (expected simulate or cuda)");
  c.backend = "simulate";
  CHECK(mmv::make_backend(c)->name() == "simulate");
}
