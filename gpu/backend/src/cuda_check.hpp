// The cuda backend's one error check (internal): every failed CUDA call, cuBLAS call or device
// allocation of the backend, in the backend class and in the device operations alike, is the
// machine's model_error "cuda backend: <what>: <message>", built on gpu/runtime's check and
// async_buffer (definitions in cuda_device.cpp, the one place a cuda_error becomes a model_error).
// Plain declarations only, so nvcc and the host compiler both include it.
#pragma once
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstddef>

#include "mmvram/gpu/runtime/buffer.hpp"

namespace mmv::gpu::cuda_impl {

// Throws model_error("cuda backend: <what>: <CUDA's message>") when e is not cudaSuccess (through
// gpu/runtime's check, which clears a non-sticky error first).
void check(cudaError_t e, const char* what);
// Throws model_error("cuda backend: cuBLAS <what> failed (status <st>)") when st is not
// CUBLAS_STATUS_SUCCESS.
void check(cublasStatus_t st, const char* what);
// `bytes` of device memory allocated on `stream` and freed in its order when the result is
// destroyed (0: none); throws model_error("cuda backend: <what>: ...") when allocation fails.
runtime::async_buffer allocate(std::size_t bytes, cudaStream_t stream, const char* what);

}  // namespace mmv::gpu::cuda_impl
