// The kernels' own helpers beside the one generator (mmvram/harness/random_inputs.hpp):
// counts as powers of two, bf16 bits.
#include "kernel_inputs.hpp"

#include <cstring>

namespace mmv::tool::kernels {

std::string format_count(std::int64_t n) {
  for (int k = 1; k < 63; ++k) {
    const std::int64_t p = std::int64_t{1} << k;
    if (n == p) return "2^" + std::to_string(k);
    if (k >= 20 && n - p > 0 && n - p <= 64) return "2^" + std::to_string(k) + "+" + std::to_string(n - p);
  }
  return std::to_string(n);
}

std::uint16_t to_bf16_bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return std::uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

float from_bf16_bits(std::uint16_t b) {
  const std::uint32_t u = std::uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

}  // namespace mmv::tool::kernels
