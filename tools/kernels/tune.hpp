// mmvram kernels tune: every tile policy candidate of the fused kernels' V0 (mmvram/gpu/tuning.hpp)
// timed the way kernels bench times (bench_report.hpp: measure_bench), and the candidate each
// kernel should run on this device, as JSON (schema mmvram-gpu-tune/1).
#pragma once
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "mmvram/harness/random_inputs.hpp"

namespace mmv::tool::kernels {

struct tune_options {
  std::int64_t n = std::int64_t{1} << 28;
  int reps = 20;
  int warmup = 3;
  int sets = 0;  // input sets to rotate among; 0: enough to exceed 3x L2 (at least 2)
  std::uint64_t seed = 0;
  std::vector<inputs::dtype> dtypes{inputs::dtype::f32, inputs::dtype::i32};
  std::vector<inputs::distribution> dists;  // empty: tune_distributions()
  std::string out_path;
};

// one_segment, geometric:32, geometric:1024, all_length_1 (the segmented kernels' rows;
// matmul_scan has one row per dtype).
std::vector<inputs::distribution> tune_distributions();

// A candidate replaces candidate 0 only when it is this much faster (geometric means, as a
// fraction): two H100 sweeps put SSCR's c2 level with c0 and 0.1% ahead of it, and two bench runs
// of SCD on two H100s differ by up to 1.1% a point; a smaller margin would follow the noise.
inline constexpr double kTuneMinGain = 0.01;

// The candidate with the least geometric mean time, if that is at least kTuneMinGain faster than
// candidate 0's (t0 / t >= 1 + kTuneMinGain), else 0: times[c] = candidate c's median times on
// the same inputs in the same order. -1 when times is empty or a candidate has no time or a
// non-finite one.
int tune_choice(const std::vector<std::vector<double>>& times);

// Times every candidate of every fused kernel (V0, forced in turn: tuning::force), prints the
// rows and each kernel's choice beside the table's (tuning::choose) and writes JSON when
// out_path is set; returns 0, or 1 when a row failed.
int run_tune(const tune_options& o, std::ostream& os);

}  // namespace mmv::tool::kernels
