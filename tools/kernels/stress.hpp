// mmvram kernels stress: the fused kernels (V0 and the ablation variants) and the state-passing
// kernels called from several host threads at once, each thread on its own non-blocking stream,
// beside a stream that keeps the SMs busy with other work. Every case draws its size (up to
// millions, often a tile boundary ± a few), segment distribution, type and an unaligned offset
// for every pointer; outputs are poisoned (0xff) with guard bytes before and after, and each
// result is compared with the CPU reference (reference.hpp, state_passing_reference.hpp).
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace mmv::tool::kernels {

struct stress_options {
  double seconds = 10;          // stop after this long (wall clock)...
  std::int64_t max_cases = 0;   // ...or after this many cases in all (0: time only)
  int threads = 4;              // host threads, each with its own non-blocking stream
  std::int64_t min_n = 1, max_n = std::int64_t{6} << 20;  // items per fused-kernel case
  std::uint64_t seed = 0;
  std::string kernels = "ours,ablation";  // the fused kernels drawn from (select_kernels' spec)
  bool state_passing = true;    // draw state-passing cases too (one in five)
  bool load = true;             // one more stream runs a 2^26-item scan in a loop
  // One more thread runs this per case (returns "" on success, else what failed), named
  // extra_name in the report: how the cuda backend's algorithms join the stress.
  std::function<std::string(std::uint64_t case_seed)> extra_case;
  std::string extra_name;
  std::string json_path;        // the report as JSON (schema mmvram-gpu-stress/1)
};

struct stress_failure {
  std::string kernel;
  std::uint64_t case_seed = 0;
  std::string detail;  // the case (n, type, distribution, offsets) and what was wrong
};

struct stress_report {
  std::int64_t cases = 0, failures = 0;
  double seconds = 0;
  std::map<std::string, std::int64_t> cases_by_kernel, failures_by_kernel;
  std::vector<stress_failure> first_failures;  // the first 32, in the order they were found
};

// Runs the stress until seconds or max_cases; progress lines go to log when it is set.
// Throws cuda_error when the CUDA context is lost.
stress_report run_stress(const stress_options& o, std::ostream* log);

// run_stress, then a summary on os and the JSON file; returns 0 when no case failed, else 1.
int run_stress_command(const stress_options& o, std::ostream& os);

}  // namespace mmv::tool::kernels
