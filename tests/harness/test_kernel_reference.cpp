// The kernels' checks (harness/kernel_reference.hpp) on arrays of several chunks (2^16 items
// each), against naive loops on fresh random inputs (seed printed; MMV_TEST_SEED fixes it):
// outputs computed by the naive loop pass, one corrupted output fails at its index, segments cut
// by chunk boundaries are joined, and f32 references are exact sums rounded once.
#include "catch.hpp"
#include "test_seed.hpp"

#include "mmvram/harness/kernel_reference.hpp"
#include "mmvram/harness/registry.hpp"

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

using mmv::inputs::dtype;
namespace kr = mmv::kernel_reference;

namespace {

constexpr std::int64_t kN = 3 * 65536 + 77;  // three chunks of the walk

// Flags with starts of probability density (0: one giant segment); position 0 always starts.
std::vector<std::uint8_t> random_flags(std::mt19937_64& g, double density) {
  std::bernoulli_distribution start(density);
  std::vector<std::uint8_t> f(static_cast<std::size_t>(kN));
  for (auto& v : f) v = start(g);
  f[0] = 1;
  return f;
}

// Naive segmented scan and sums, each sum a running total in W converted by out.
template <class W, class T, class Out>
void naive(const std::vector<T>& x, const std::vector<std::uint8_t>& f, Out out, std::vector<T>& scan,
           std::vector<T>& sums, std::vector<std::int64_t>& offsets) {
  W s{};
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (f[i]) s = W{}, offsets.push_back(static_cast<std::int64_t>(i));
    s += static_cast<W>(x[i]);
    scan.push_back(out(s));
    if (i + 1 == x.size() || f[i + 1]) sums.push_back(out(s));
  }
  offsets.push_back(static_cast<std::int64_t>(x.size()));
}

std::int32_t wrap32(std::int64_t v) {  // v modulo 2^32, two's complement, by int64 arithmetic
  const std::int64_t m = std::int64_t{1} << 32, r = ((v % m) + m) % m;
  return static_cast<std::int32_t>(r >= m / 2 ? r - m : r);
}

}  // namespace

TEST_CASE("int32 checks over several chunks: naive outputs pass, one wrong item fails at its index",
          "[kernel_reference]") {
  const auto seed = mmv::test::fresh_seed();
  CAPTURE(seed);
  std::mt19937_64 g(seed);
  std::uniform_int_distribution<std::int32_t> any(INT32_MIN, INT32_MAX);
  for (const double density : {0.0, 1e-5, 0.01, 0.5, 1.0}) {
    CAPTURE(density);
    std::vector<std::int32_t> x(static_cast<std::size_t>(kN)), scan, sums;
    for (auto& v : x) v = any(g);
    const auto f = random_flags(g, density);
    std::vector<std::int64_t> offsets;
    naive<std::int64_t>(x, f, wrap32, scan, sums, offsets);
    const auto segments = static_cast<std::int64_t>(sums.size());
    auto v = kr::verify_segmented_scan(dtype::i32, x.data(), f.data(), scan.data(), kN);
    REQUIRE(v.pass);
    CHECK(v.num_segments == segments);
    CHECK(kr::verify_segmented_sum(dtype::i32, x.data(), f.data(), sums.data(), offsets.data(), segments, kN).pass);
    const auto bad = std::uniform_int_distribution<std::int64_t>(0, kN - 1)(g);
    scan[static_cast<std::size_t>(bad)] ^= 1;
    v = kr::verify_segmented_scan(dtype::i32, x.data(), f.data(), scan.data(), kN);
    CHECK_FALSE(v.pass);
    CHECK(v.first_bad == bad);
    CHECK(v.bad == 1);
    sums.back() += 1;  // the last segment: for density 0, the giant one across every chunk
    v = kr::verify_segmented_sum(dtype::i32, x.data(), f.data(), sums.data(), offsets.data(), segments, kN);
    CHECK_FALSE(v.pass);
    CHECK(v.first_bad == offsets[offsets.size() - 2]);
  }
  std::vector<std::int32_t> x(static_cast<std::size_t>(kN));
  std::int64_t total = 0;
  for (auto& v : x) v = any(g), total += v;
  std::int32_t sum = wrap32(total);
  CHECK(kr::verify_reduce(dtype::i32, x.data(), &sum, kN).pass);
  sum += 1;
  CHECK_FALSE(kr::verify_reduce(dtype::i32, x.data(), &sum, kN).pass);
}

TEST_CASE("f32 checks over several chunks: the reference is the exact sum, rounded once", "[kernel_reference]") {
  const auto seed = mmv::test::fresh_seed();
  CAPTURE(seed);
  std::mt19937_64 g(seed);
  std::uniform_int_distribution<std::int32_t> k(-(1 << 20), 1 << 20);
  for (const double density : {0.0, 1e-5, 0.01, 1.0}) {
    CAPTURE(density);
    // Dyadic values k / 256: the naive double loop is exact, and float(it) within 2^-24 of it.
    std::vector<float> x(static_cast<std::size_t>(kN)), scan, sums;
    for (auto& v : x) v = static_cast<float>(k(g)) / 256;
    const auto f = random_flags(g, density);
    std::vector<std::int64_t> offsets;
    naive<double>(x, f, [](double s) { return static_cast<float>(s); }, scan, sums, offsets);
    const auto segments = static_cast<std::int64_t>(sums.size());
    auto v = kr::verify_segmented_scan(dtype::f32, x.data(), f.data(), scan.data(), kN);
    REQUIRE(v.pass);
    CHECK(v.max_scaled_error <= 0x1p-24);
    v = kr::verify_segmented_sum(dtype::f32, x.data(), f.data(), sums.data(), offsets.data(), segments, kN);
    REQUIRE(v.pass);
    CHECK(v.max_scaled_error <= 0x1p-24);
  }
  // One segment across the first chunk boundary holding 2^100 + 1 - 2^100 = 1: a float64 running
  // sum would say 0; the reference says 1, so the kernel's exact 1 has error 0.
  std::vector<float> x(static_cast<std::size_t>(kN), 0.0f);
  std::vector<std::uint8_t> f(static_cast<std::size_t>(kN), 0);
  f[0] = 1, f[65530] = 1, f[65540] = 1;
  x[65534] = 0x1p100f, x[65535] = 1, x[65536] = -0x1p100f;
  const std::vector<float> sums{0, 1, 0};
  const std::vector<std::int64_t> offsets{0, 65530, 65540, kN};
  const auto v = kr::verify_segmented_sum(dtype::f32, x.data(), f.data(), sums.data(), offsets.data(), 3, kN);
  REQUIRE(v.pass);
  CHECK(v.max_scaled_error == 0);
  float one = 1;
  const auto r = kr::verify_reduce(dtype::f32, x.data(), &one, kN);
  CHECK(r.pass);
  CHECK(r.max_error == 0);
}

// A one-item segment at p = 129 * 512 - 5 with an error of 100 kRevertCoefficient: blocks
// shifted by 5 start at p (H = 0, 100 times V3's derived bound); unshifted blocks hold 507 items
// of |x| = 1 before it (H = 507, a fifth of the bound). Both checks place the blocks alike.
TEST_CASE("V3's derived bound takes its blocks from the tile grid's shift", "[kernel_reference]") {
  constexpr std::int64_t p = 129 * 512 - 5;
  const double err = 100 * mmv::kRevertCoefficient;
  std::vector<float> x(static_cast<std::size_t>(kN), 1.0f), scan(static_cast<std::size_t>(kN));
  std::vector<std::uint8_t> f(static_cast<std::size_t>(kN), 0);
  f[0] = f[p] = f[p + 1] = 1;
  for (std::int64_t i = 0, run = 0; i < kN; ++i) run = f[i] ? 1 : run + 1, scan[i] = static_cast<float>(run);
  scan[p] = static_cast<float>(1 + err);
  const std::vector<float> sums{static_cast<float>(p), scan[p], static_cast<float>(kN - p - 1)};
  const std::vector<std::int64_t> offsets{0, p, p + 1, kN};
  for (const std::int64_t phase : {0, 5}) {
    CAPTURE(phase);
    const auto a = kr::verify_segmented_scan(dtype::f32, x.data(), f.data(), scan.data(), kN, 512, phase);
    const auto b = kr::verify_segmented_sum(dtype::f32, x.data(), f.data(), sums.data(), offsets.data(), 3, kN, 512, phase);
    for (const auto& v : {a, b}) {
      CHECK(v.single_bad == 1);
      if (phase == 0) CHECK(v.single_over_derived == Approx(100.0 / 508).epsilon(1e-3));
      else CHECK(v.single_over_derived == Approx(100.0).epsilon(1e-3));
    }
  }
}

TEST_CASE("verify_state_passing: within the tolerance of its scale, strided, NaN and floor", "[kernel_reference]") {
  // Two lanes (stride 2), three chunks; lane 0 checked against want and scale.
  const std::vector<double> want{1, -2, 0}, scale{1, 4, 0};
  std::vector<float> got{1, 9, -2, 9, 0, 9};
  auto v = kr::verify_state_passing(got.data(), 2, want.data(), scale.data(), 3);
  CHECK(v.pass);
  CHECK(v.max_error == 0);
  got[2] = float(-2 + 1e-5);  // 1e-5 > kStatePassingTolerance * 4
  v = kr::verify_state_passing(got.data(), 2, want.data(), scale.data(), 3);
  CHECK(!v.pass);
  CHECK(v.first_bad == 1);
  got[2] = -2, got[4] = 1e-40f;  // a subnormal where the scale is 0: within the floor
  CHECK(kr::verify_state_passing(got.data(), 2, want.data(), scale.data(), 3).pass);
  got[4] = NAN;
  v = kr::verify_state_passing(got.data(), 2, want.data(), scale.data(), 3);
  CHECK(!v.pass);
  CHECK(v.first_bad == 2);
}

TEST_CASE("describe_f32_rule: the rule's sentence, numbers from the constants", "[kernel_reference]") {
  CHECK(mmv::describe_f32_rule(512) ==
        "a single-item result (segment start, one-item segment) within 1e-6*|x| of x; else per segment "
        "||out-ref||/||ref|| (scan) or |out-ref|/sum|x| (sum) <= 1e-6*max(1,sqrt(len/4096)), where kernels with a "
        "speculation block (V3) first take their derived REVERT bound 0x1.1p-16 * H off each error (H: sum |x| over "
        "the 512-item block holding the segment's start, before the start; docs/gpu_v3_error.md)");
}

TEST_CASE("the registry's sscr and scd fused kernels: kernels accuracy's default selection", "[kernel_reference]") {
  // tools/kernels/accuracy.hpp's default_accuracy_kernels joins these, sscr first; the list it had spelled out.
  std::vector<std::string> names = mmv::find_algorithm("sscr").fused_kernels;
  for (const auto& k : mmv::find_algorithm("scd").fused_kernels) names.push_back(k);
  CHECK(names == std::vector<std::string>{"sscr_segmented_scan", "sscr_segmented_scan_tc", "sscr_segmented_scan_tc_rows",
                                          "sscr_segmented_scan_tc_warp", "scd_segmented_sum", "scd_segmented_sum_tc",
                                          "scd_segmented_sum_tc_rows", "scd_segmented_sum_tc_warp"});
}
