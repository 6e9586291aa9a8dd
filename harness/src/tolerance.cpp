// The one tolerance policy (tolerance.hpp): the simulator's proven bound and the kernels' fp32 rule.
#include "mmvram/harness/tolerance.hpp"

#include "mmvram/algorithms/common.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace mmv {

// The allowed |out - ref| of a float run over values whose magnitudes sum to `magnitude` (M):
// (2 gamma_d + 2u) M, gamma_d = d u / (1 - d u), u the unit roundoff. d bounds the roundings
// on any path from an input to an output: each of the <= ceil(log_s n) + 1 MMU levels of the
// up and down sweeps sums at most s terms in double and rounds once to the format (s roundings),
// plus 2 ceil(log2 n) + 2 VCU additions; the speculative scans' differences double it, and the
// reference (compensated, reference.hpp) adds at most 2u M.
double tolerance(number_format f, std::int64_t n, int s, double magnitude) {
  if (f == number_format::integer) return 0;
  const double u = f == number_format::float32 ? 0x1p-24 : 0x1p-53;
  const std::int64_t m = std::max<std::int64_t>(n, 2);
  const double d = 2.0 * s * static_cast<double>(ceil_log(m, s) + 1) + 2.0 * static_cast<double>(ceil_log(m, 2)) + 2;
  return (2 * d * u / (1 - d * u) + 2 * u) * magnitude;
}

double f32_bound(std::int64_t len) {
  return kF32BoundBase * std::max(1.0, std::sqrt(static_cast<double>(len) / static_cast<double>(kF32BoundTileItems)));
}

namespace {
// printf's text of v under fmt ("%g": 1e-06 written 1e-6; "%a": hex), for describe_f32_rule.
std::string number_text(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  std::string s = buf;
  for (std::size_t e = s.find("e-0"); e != std::string::npos; e = s.find("e-0")) s.erase(e + 2, 1);
  return s;
}
}  // namespace

std::string describe_f32_rule(std::int64_t speculation_block) {
  const std::string base = number_text("%g", kF32BoundBase);
  return "a single-item result (segment start, one-item segment) within " + base + "*|x| of x; else per segment "
         "||out-ref||/||ref|| (scan) or |out-ref|/sum|x| (sum) <= " + base + "*max(1,sqrt(len/" +
         std::to_string(kF32BoundTileItems) + ")), where kernels with a speculation block (V3) first take their "
         "derived REVERT bound " + number_text("%a", kRevertCoefficient) + " * H off each error (H: sum |x| over the " +
         std::to_string(speculation_block) + "-item block holding the segment's start, before the start; "
         "docs/gpu_v3_error.md)";
}

double bits_lost(double relative_error) {
  if (!(relative_error > 0)) return std::isnan(relative_error) ? INFINITY : 0.0;
  return std::max(0.0, 24.0 + std::log2(relative_error));
}

}  // namespace mmv
