// The one tolerance policy (harness/tolerance.hpp) and the kernels' references
// (harness/kernel_reference.hpp) on crafted inputs, on the CPU: the fp32 rule's bound formula,
// V3's REVERT allowance, bits lost, the simulator's proven bound, and the verdicts of the
// kernels' comparisons just inside and just outside the bound (int32: exact, wrapping).
#include "catch.hpp"

#include "mmvram/harness/kernel_reference.hpp"
#include "mmvram/harness/tolerance.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

using mmv::inputs::dtype;
namespace kr = mmv::kernel_reference;

namespace {
bool close(double a, double b) { return std::fabs(a - b) <= 1e-14 * std::fabs(b); }
}  // namespace

TEST_CASE("f32_bound: 1e-6 up to 4096 items, then growing as sqrt(len / 4096)", "[tolerance]") {
  CHECK(mmv::f32_bound(0) == 1e-6);
  CHECK(mmv::f32_bound(1) == 1e-6);
  CHECK(mmv::f32_bound(4096) == 1e-6);
  CHECK(mmv::f32_bound(4 * 4096) == 2e-6);
  CHECK(close(mmv::f32_bound(100 * 4096), 1e-5));
  CHECK(mmv::kRevertCoefficient == 0x1.1p-16);
  CHECK(mmv::kBitsLostBins == 26);
  CHECK(mmv::kStatePassingTolerance == 2e-6);
}

TEST_CASE("bits_lost: 24 + log2 of the relative error, at least 0", "[tolerance]") {
  CHECK(mmv::bits_lost(0) == 0);
  CHECK(mmv::bits_lost(0x1p-30) == 0);
  CHECK(mmv::bits_lost(0x1p-24) == 0);
  CHECK(mmv::bits_lost(0x1p-20) == 4);
  CHECK(mmv::bits_lost(1) == 24);
  CHECK(std::isinf(mmv::bits_lost(std::nan(""))));
}

TEST_CASE("tolerance: exact integers, (2 gamma_d + 2u) M for floats", "[tolerance]") {
  CHECK(mmv::tolerance(mmv::number_format::integer, 1000, 16, 5.0) == 0);
  // n = 256, s = 16: ceil(log_16 256) = 2, ceil(log_2 256) = 8, d = 2*16*3 + 2*8 + 2 = 114.
  const double d = 114, u32 = 0x1p-24, u64 = 0x1p-53;
  CHECK(close(mmv::tolerance(mmv::number_format::float32, 256, 16, 3.0), (2 * d * u32 / (1 - d * u32) + 2 * u32) * 3.0));
  CHECK(close(mmv::tolerance(mmv::number_format::float64, 256, 16, 3.0), (2 * d * u64 / (1 - d * u64) + 2 * u64) * 3.0));
  CHECK(mmv::tolerance(mmv::number_format::float32, 256, 16, 0.0) == 0);
}

TEST_CASE("verify_segmented_scan, int32: exact with wrap-around", "[tolerance][kernel_reference]") {
  const std::vector<std::int32_t> x{INT32_MAX, 1, 5, -7, 3};
  const std::vector<std::uint8_t> f{1, 0, 1, 0, 0};
  std::vector<std::int32_t> out{INT32_MAX, INT32_MIN, 5, -2, 1};
  auto v = kr::verify_segmented_scan(dtype::i32, x.data(), f.data(), out.data(), 5);
  CHECK(v.pass);
  CHECK(v.num_segments == 2);
  out[3] = -1;
  v = kr::verify_segmented_scan(dtype::i32, x.data(), f.data(), out.data(), 5);
  CHECK_FALSE(v.pass);
  CHECK(v.first_bad == 3);
  CHECK(v.bad == 1);
}

TEST_CASE("verify_segmented_scan, f32: a start within f32_bound(1) of x, a segment within f32_bound(len)",
          "[tolerance][kernel_reference]") {
  const std::vector<float> x{1.0f, 1.0f, 1.0f, 1.0f};
  const std::vector<std::uint8_t> f{1, 0, 0, 0};
  std::vector<float> out{1.0f, 2.0f, 3.0f, 4.0f};
  CHECK(kr::verify_segmented_scan(dtype::f32, x.data(), f.data(), out.data(), 4).pass);
  // One ulp of 4 (4.77e-7) at the last item: ||err|| / ||ref|| = 4.77e-7 / sqrt(30) << 1e-6.
  out[3] = std::nextafter(4.0f, 5.0f);
  auto v = kr::verify_segmented_scan(dtype::f32, x.data(), f.data(), out.data(), 4);
  CHECK(v.pass);
  CHECK(v.worst_ratio < 1);
  // 1e-5 relative at the last item: beyond 1e-6 * ||ref||.
  out[3] = 4.0f * (1 + 1e-5f);
  v = kr::verify_segmented_scan(dtype::f32, x.data(), f.data(), out.data(), 4);
  CHECK_FALSE(v.pass);
  CHECK(v.first_bad == 0);  // the segment's start names the failing segment
  // A segment start two ulps from x: beyond f32_bound(1) = 1e-6 relative (2 ulps of 1 = 2.4e-7 pass).
  out = {std::nextafter(std::nextafter(1.0f, 2.0f), 2.0f), 2.0f, 3.0f, 4.0f};
  CHECK(kr::verify_segmented_scan(dtype::f32, x.data(), f.data(), out.data(), 4).pass);
  out[0] = 1.0f + 2e-6f;
  v = kr::verify_segmented_scan(dtype::f32, x.data(), f.data(), out.data(), 4);
  CHECK_FALSE(v.pass);
  CHECK(v.single_bad == 1);
  CHECK(v.detail.rfind("out[0] = 1.00000203, expected x = 1 (one item: exact in every order): relative error ", 0) == 0);
}

TEST_CASE("verify_segmented_scan, f32: V3's REVERT allowance kRevertCoefficient * H", "[tolerance][kernel_reference]") {
  // Block of 4 items; the second segment starts at 2, so H = |x0| + |x1| = 2^20 (large).
  const std::vector<float> x{0x1p19f, 0x1p19f, 1.0f, 1.0f};
  const std::vector<std::uint8_t> f{1, 0, 1, 0};
  // Error at out[3] of 8 (reference 2): H * kRevertCoefficient = 2^20 * 2^-16 * 1.0625 = 17 covers it.
  std::vector<float> out{0x1p19f, 0x1p20f, 1.0f, 10.0f};
  CHECK_FALSE(kr::verify_segmented_scan(dtype::f32, x.data(), f.data(), out.data(), 4, 0).pass);
  CHECK(kr::verify_segmented_scan(dtype::f32, x.data(), f.data(), out.data(), 4, 4).pass);
  out[3] = 20.0f;  // error 18 > 17
  CHECK_FALSE(kr::verify_segmented_scan(dtype::f32, x.data(), f.data(), out.data(), 4, 4).pass);
}

TEST_CASE("verify_segmented_sum: sums, offsets and the segment count", "[tolerance][kernel_reference]") {
  const std::vector<std::int32_t> x{1, 2, 3, 4, 5};
  const std::vector<std::uint8_t> f{1, 0, 1, 1, 0};
  std::vector<std::int32_t> sums{3, 3, 9};
  std::vector<std::int64_t> offsets{0, 2, 3, 5};
  CHECK(kr::verify_segmented_sum(dtype::i32, x.data(), f.data(), sums.data(), offsets.data(), 3, 5).pass);
  auto v = kr::verify_segmented_sum(dtype::i32, x.data(), f.data(), sums.data(), offsets.data(), 2, 5);
  CHECK_FALSE(v.pass);
  CHECK(v.layout_error);
  offsets[1] = 1;
  v = kr::verify_segmented_sum(dtype::i32, x.data(), f.data(), sums.data(), offsets.data(), 3, 5);
  CHECK_FALSE(v.pass);
  CHECK(v.layout_error);
  offsets[1] = 2;
  sums[2] = 8;
  v = kr::verify_segmented_sum(dtype::i32, x.data(), f.data(), sums.data(), offsets.data(), 3, 5);
  CHECK_FALSE(v.pass);
  CHECK(v.first_bad == 3);
  // f32: |out - ref| <= f32_bound(len) * sum |x| for two items or more.
  const std::vector<float> xf{1.0f, -1.0f, 0.5f};
  const std::vector<std::uint8_t> ff{1, 0, 0};
  std::vector<float> sf{0.5f + 2e-6f};  // 2e-6 <= 1e-6 * 2.5
  CHECK(kr::verify_segmented_sum(dtype::f32, xf.data(), ff.data(), sf.data(), nullptr, 1, 3).pass);
  sf[0] = 0.5f + 3e-6f;  // 3e-6 > 2.5e-6
  CHECK_FALSE(kr::verify_segmented_sum(dtype::f32, xf.data(), ff.data(), sf.data(), nullptr, 1, 3).pass);
}

TEST_CASE("verify_reduce and verify_copy", "[tolerance][kernel_reference]") {
  const std::vector<std::int32_t> x{INT32_MAX, 2};
  std::int32_t sum = INT32_MIN + 1;
  CHECK(kr::verify_reduce(dtype::i32, x.data(), &sum, 2).pass);
  sum = 0;
  CHECK_FALSE(kr::verify_reduce(dtype::i32, x.data(), &sum, 2).pass);
  const std::vector<float> xf{1.0f, 2.0f, -1.0f};
  float s = 2.0f + 3e-6f;  // 3e-6 <= 1e-6 * 4
  CHECK(kr::verify_reduce(dtype::f32, xf.data(), &s, 3).pass);
  s = 2.0f + 5e-6f;
  CHECK_FALSE(kr::verify_reduce(dtype::f32, xf.data(), &s, 3).pass);
  std::vector<std::uint8_t> a{1, 2, 3}, b{1, 2, 3};
  CHECK(kr::verify_copy(a.data(), b.data(), 3).pass);
  b[2] = 4;
  const auto v = kr::verify_copy(a.data(), b.data(), 3);
  CHECK_FALSE(v.pass);
  CHECK(v.first_bad == 2);
}
