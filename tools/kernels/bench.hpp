// mmvram kernels bench: median time of every selected kernel over dtypes and segment distributions,
// rotating among input sets larger than L2 together, with the copy and CUB measured alongside.
#pragma once
#include "mmvram/harness/random_inputs.hpp"
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "kernel_inputs.hpp"

namespace mmv::tool::kernels {

struct bench_options {
  std::int64_t n = std::int64_t{1} << 28;
  int reps = 20;
  int warmup = 3;
  int sets = 0;  // input sets to rotate among; 0: enough to exceed 3x L2 (at least 2)
  std::uint64_t seed = 0;
  std::string kernels = "all";
  std::vector<inputs::dtype> dtypes{inputs::dtype::f32, inputs::dtype::i32};
  std::vector<inputs::distribution> dists;  // empty: bench_distributions()
  std::int64_t offset = 0;          // x, flags and out this many items (0..15) past aligned
  bool tile_cycles = false;         // also run the fused kernels reps times with the clock64 probe
  std::string out_path;
};
// one_segment, all_length_1, geometric and pareto with means 32, 1K, 32K, 1M, fixed 32..1M.
std::vector<inputs::distribution> bench_distributions();
// Runs, prints the table, writes JSON when out_path is set; returns 0, or 1 when a kernel failed.
int run_bench(const bench_options& o, std::ostream& os);

}  // namespace mmv::tool::kernels
