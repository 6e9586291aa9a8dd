// The one tolerance policy (tolerance.hpp): the simulator's proven bound and the kernels' fp32 rule.
#include "mmvram/harness/tolerance.hpp"

#include "mmvram/algorithms/common.hpp"

#include <algorithm>
#include <cmath>

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
  return 1e-6 * std::max(1.0, std::sqrt(static_cast<double>(len) / 4096.0));
}

double bits_lost(double relative_error) {
  if (!(relative_error > 0)) return std::isnan(relative_error) ? INFINITY : 0.0;
  return std::max(0.0, 24.0 + std::log2(relative_error));
}

}  // namespace mmv
