// mmvram kernels accuracy: V3's fp32 error against the magnitude spread of its inputs, beside the
// other variants, on the fp32 rule of check (mmvram/harness/tolerance.hpp; derivation in docs/gpu_v3_error.md).
#pragma once
#include <cstdint>
#include <ostream>
#include <string>

namespace mmv::tool::kernels {

// The default --kernels: the fused kernels of the registry's sscr entry, then its scd entry
// (harness/registry.hpp: V0-V3 each, in the entries' order), comma-separated.
std::string default_accuracy_kernels();

struct accuracy_options {
  std::int64_t n = std::int64_t{1} << 22;
  std::uint64_t seed = 0;
  std::string kernels = default_accuracy_kernels();
  std::string out_path;  // JSON (experiments/results/gpu_v3_accuracy_<GPU>.json); empty: table only
};

// Runs every value family (|x| log-uniform over 10^0..10^K for several K, random signs; and
// small values with one item in 64 or 512 of magnitude 1e30) under geometric:32 and
// geometric:1024 starts through the selected segmented fp32 kernels, prints the table and
// writes the JSON. Returns 1 when a counted failure (check's rule) occurred, else 0.
int run_accuracy(const accuracy_options& o, std::ostream& os);

}  // namespace mmv::tool::kernels
