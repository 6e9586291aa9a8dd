// mmvram kernels check: every selected kernel against the CPU reference on fresh random inputs,
// over all segment distributions, edge sizes and (unless quick) 2^31 + 5 items.
#pragma once
#include "mmvram/harness/random_inputs.hpp"
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "kernel_inputs.hpp"
#include "json_file.hpp"
#include "kernels.hpp"
#include "mmvram/harness/kernel_reference.hpp"
#include "mmvram/harness/tolerance.hpp"

namespace mmv::tool::kernels {

struct check_result {
  std::string kernel, family, operation;
  inputs::dtype type = inputs::dtype::f32;
  std::int64_t n = 0;
  std::string distribution;
  std::int64_t num_segments = 0;
  std::int64_t pointer_offset = 0;  // items past aligned allocations (x, flags, out)
  std::string status;  // PASS, FAIL, ERROR (the call threw), SKIPPED (not enough memory, not built)
  kernel_reference::verdict v;
  std::string detail;
  // "exact" (int32, copy), "fp32_bound" (fp32, claims fp32 accuracy) or "documented_inaccuracy"
  // (fp32 of a kernel with claims_fp32_accuracy = false: V3's segmented kernels).
  std::string accuracy_claim;
  // Whether a FAIL or ERROR here counts in check's exit status: false only for a documented
  // inaccuracy's accuracy failures (an ERROR, a wrong offset or count, or a write outside out counts).
  bool counts_toward_exit = true;
};

// A further check of a kernel's host copy of its output (n values for scans, one per segment
// for segmented sums): "" when it holds, else what differed (the result then FAILs).
using output_check = std::function<std::string(const kernel_info& k, const void* out, std::int64_t count)>;

// Runs each kernel on the host inputs x (n values of t) and flags on poisoned outputs and
// compares with the reference (and by `also` where given); distribution names the flags in
// the results. Copy, reduction and unsegmented scans run only when with_unsegmented. x, flags
// and out start `offset` items (0..15) past aligned allocations. Throws cuda_error when the
// CUDA context is lost.
std::vector<check_result> check_data(const std::vector<const kernel_info*>& kernels, inputs::dtype t, const void* x,
                                     const std::uint8_t* flags, std::int64_t n, const std::string& distribution,
                                     bool with_unsegmented, std::int64_t offset = 0, const output_check& also = {});
// check_data on one generated case: values from seed (fill_values), flags of d.
std::vector<check_result> check_case(const std::vector<const kernel_info*>& kernels, inputs::dtype t,
                                     std::int64_t n, const inputs::distribution& d, std::uint64_t seed,
                                     bool with_unsegmented, std::int64_t offset = 0);
// Whether r counts as a failure in the exit status (ERROR, or FAIL where counts_toward_exit).
bool counted_failure(const check_result& r);
// Whether a speculation kernel's (V3's) fp32 result r exceeds what its derivation allows: a
// single-item error above kRevertCoefficient * (H + |x|), or a segment beyond the bound plus
// the fp32 rule. Either means the assumptions of docs/gpu_v3_error.md fail on the device.
bool beyond_derivation(const check_result& r);
// r's fields as one JSON object (an entry of check's and accuracy's results arrays).
json result_json(const check_result& r);

struct check_options {
  bool quick = false;
  bool big = true;  // include n = 2^31 + 5
  std::uint64_t seed = 0;
  std::string kernels = "all";
  std::vector<inputs::dtype> dtypes{inputs::dtype::f32, inputs::dtype::i32};
  std::string json_path;
  bool verbose = false;
};
// Runs the whole plan, prints the table; returns 1 when a counted failure occurred, else 0.
int run_check(const check_options& o, std::ostream& os);

}  // namespace mmv::tool::kernels
