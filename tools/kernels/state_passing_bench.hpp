// mmvram kernels state-passing: the inter-chunk state passing of chunked linear attention on one
// packed batch (LogNormal sequence lengths, chunk-aligned) through every state-propagation method
// (state_passing.hpp), each checked against a float64 host loop on a sample of lanes and timed
// beside a copy of the same bytes. The rivals from PyTorch (mamba_ssm, flash-linear-attention)
// are in experiments/state_passing_mve.py.
#pragma once
#include <cstdint>
#include <ostream>
#include <string>

namespace mmv::tool::kernels {

struct state_passing_options {
  int sequences = 32;
  double mu = 7.0, sigma = 1.0;  // token counts ~ LogNormal(mu, sigma), at least 1
  int chunk_tokens = 64, heads = 32, rows = 16, cols = 64;
  int reps = 30, warmup = 5, calls = 10;  // each timed run: `calls` launches between two events
  std::uint64_t seed = 0;
  std::string out_path;
};

// Prints one line per (dtype, method) and writes JSON (schema mmvram-gpu-state-passing/1) when
// out_path is set; returns 0, or 1 when a method's results miss the reference.
int run_state_passing_bench(const state_passing_options& o, std::ostream& os);

}  // namespace mmv::tool::kernels
