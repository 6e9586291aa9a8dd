// mmvram-gpu check: every selected kernel against the CPU reference on fresh random inputs,
// over all segment distributions, edge sizes and (unless quick) 2^31 + 5 items.
#pragma once
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "inputs.hpp"
#include "kernels.hpp"
#include "reference.hpp"

namespace mmv::gpu::harness {

struct check_result {
  std::string kernel, family, operation;
  dtype type = dtype::f32;
  std::int64_t n = 0;
  std::string distribution;
  std::int64_t num_segments = 0;
  std::int64_t pointer_offset = 0;  // items past aligned allocations (x, flags, out)
  std::string status;  // PASS, FAIL, ERROR (the call threw), SKIPPED (not enough memory, not built)
  verdict v;
  std::string detail;
};

// Generates one case (values from seed, flags of d), runs each kernel on poisoned outputs and
// compares with the reference. Copy, reduction and unsegmented scans run only when
// with_unsegmented. x, flags and out start `offset` items (0..15) past aligned allocations.
// Throws cuda_error when the CUDA context is lost (a sticky error after a kernel).
std::vector<check_result> check_case(const std::vector<const kernel_info*>& kernels, dtype t,
                                     std::int64_t n, const distribution& d, std::uint64_t seed,
                                     bool with_unsegmented, std::int64_t offset = 0);

struct check_options {
  bool quick = false;
  bool big = true;  // include n = 2^31 + 5
  std::uint64_t seed = 0;
  std::string kernels = "all";
  std::vector<dtype> dtypes{dtype::f32, dtype::i32};
  std::string json_path;
  bool verbose = false;
};
// Runs the whole plan, prints the table; returns 0 when nothing failed, 1 otherwise.
int run_check(const check_options& o, std::ostream& os);

}  // namespace mmv::gpu::harness
