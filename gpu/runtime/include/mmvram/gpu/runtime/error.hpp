// The one CUDA error type and check of mmvram's GPU half. Every library under gpu/ and every
// tool that calls the CUDA runtime reports a failed call through check(), so a failure always
// reads "<what>: <CUDA's message>" and is always a mmv::gpu::cuda_error.
#pragma once
#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>
#include <string_view>

namespace mmv::gpu {

struct cuda_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

namespace runtime {

// Throws cuda_error("<what>: <CUDA message>") when e is not cudaSuccess; clears a non-sticky
// error first, so the next call does not report it again.
inline void check(cudaError_t e, std::string_view what) {
  if (e == cudaSuccess) return;
  cudaGetLastError();
  throw cuda_error(std::string(what) + ": " + cudaGetErrorString(e));
}

// check() of the last launch on this thread: call right after a <<<...>>> launch.
inline void check_launch(std::string_view what) { check(cudaGetLastError(), what); }

// Call after catching a cuda_error from `what` (a kernel's name), to decide whether to go on.
// Waits for the device: when that fails the error is sticky, the context is lost and nothing
// more can run in this process, so it throws cuda_error("CUDA context lost after <what>:
// <CUDA message>"); otherwise it clears the (non-sticky) error of this thread and returns, and
// the caller records the failure and goes on with the next kernel.
void throw_if_context_lost(std::string_view what);

}  // namespace runtime
}  // namespace mmv::gpu
