// `mmvram kernels check ALGO`: one input of a registered algorithm (the harness's input library,
// as `mmvram run` draws it) through the simulate backend, the cuda backend and every fused
// kernel of the algorithm (V0-V3). i32: every path must equal the harness reference
// (harness/reference.hpp) exactly. Paths are compared with the harness reference by the
// harness's one comparison (verify.hpp: first_mismatch), which names the first difference. f32: the backends within their tolerance of the harness
// reference; the kernels by check's fp32 rule against the kernels' float64 reference
// (kernel_reference.hpp) on the same float32 values, not against the harness reference.
#pragma once
#include "mmvram/harness/random_inputs.hpp"
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "kernel_inputs.hpp"
#include "kernels.hpp"

namespace mmv::tool::kernels {

struct algorithm_check_options {
  std::string algorithm;                     // a registry name with fused kernels
  std::int64_t n = (std::int64_t{1} << 20) + 3;
  int s = 16;                                // the backends' MMU tile size
  double density = 0.05;                     // probability that a position starts a segment
  std::uint64_t seed = 1;
  std::vector<inputs::dtype> dtypes{inputs::dtype::i32, inputs::dtype::f32};  // i32: integer machine, B = 32; f32: float32
};

// The fused kernels (V0-V3) of registry algorithm `algorithm`: the names of its registry
// entry's fused_kernels looked up in all_kernels(), in the entry's order; names not in the kernel
// table (state-passing's methods) are left out. Empty for an entry without any; an unknown name
// throws model_error (find_algorithm).
std::vector<const kernel_info*> fused_kernels_of(const std::string& algorithm);

// Whether kernels check ALGO takes `algorithm`: fused_kernels_of non-empty, or spmv (its fused
// kernel, spmv_csr, is outside the kernel table: spmv_run.hpp). Unknown names: model_error.
bool checkable(const std::string& algorithm);

// The registry algorithms kernels check ALGO takes (checkable), in the registry's order.
std::vector<std::string> checkable_algorithms();

// The one-line reason kernels check ALGO refuses `algorithm` (no fused kernels, or fused kernels
// outside the kernel table: the state-passing methods), naming checkable_algorithms(); an
// unknown name throws model_error (find_algorithm).
std::string not_checkable_reason(const std::string& algorithm);

// Runs the comparison and prints one line per (dtype, path); spmv: the backends and spmv_csr
// (fp32 and fp64 on the f32 input) within its derived bound, i32 the backends only. i32: every path must equal the
// harness reference exactly (int32 wrap-around for the kernels). f32: the backends within the
// registry's tolerance of it; the kernels by check's fp32 rule (mmvram/harness/tolerance.hpp),
// against the kernels' float64 reference, not the harness reference, on the same float32
// values. Returns 1 when a path failed (check's counting: V3's documented fp32 inaccuracy is
// printed, not counted), else 0. Throws std::invalid_argument for an algorithm
// without fused kernels and cuda_error when the CUDA context is lost.
int run_algorithm_check(const algorithm_check_options& o, std::ostream& os);

}  // namespace mmv::tool::kernels
