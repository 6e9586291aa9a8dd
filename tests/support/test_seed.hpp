// The seed of a test's random inputs: fresh on every call, so every run draws new inputs, or
// the value of the MMV_TEST_SEED environment variable, to replay a failure (tests CAPTURE it).
#pragma once
#include <cstdint>
#include <cstdlib>
#include <random>

namespace mmv::test {

inline std::uint64_t fresh_seed() {
  if (const char* env = std::getenv("MMV_TEST_SEED")) return std::strtoull(env, nullptr, 10);
  return (std::uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
}

}  // namespace mmv::test
