// mmvram kernels multi-gpu: the sharded kernels (mmvram/gpu/multi.hpp) at weak scaling. Each
// GPU holds n_per_gpu items; the single-GPU kernel on one GPU with the same n is the baseline,
// timed the same way in the same run (host wall clock from launch to the last stream's end,
// median of reps after warm-up). The first run of every case is checked against the CPU
// reference (harness/kernel_reference.hpp) before it is timed.
#pragma once
#include <cstdint>
#include <ostream>
#include <string>

namespace mmv::tool::kernels {

struct multi_gpu_options {
  std::int64_t n_per_gpu = std::int64_t{1} << 28;
  int gpus = 0;                  // 0: every GPU of the machine (at least two)
  int reps = 20;
  std::int64_t large_n_per_gpu = 0;  // > 0: one more segmented-scan case this large per GPU
  std::uint64_t seed = 1;
  std::string out_path;          // JSON (schema mmvram-multi-gpu/1); empty: table only
};

// Runs every case, prints a table, writes out_path. Returns 0 when every check passed, 1 when
// one failed; throws cuda_error on a CUDA or NCCL failure.
int run_multi_gpu(const multi_gpu_options& o, std::ostream& os);

}  // namespace mmv::tool::kernels
