// Shared device pieces of the cuda backend (internal): the grid-stride launcher and the error
// report; the element semantics are the model's (vcu_semantics.hpp). Host-side failures go
// through the backend's one check (cuda_check.hpp) and are the machine's model_error.
#pragma once
#include "cuda_check.hpp"
#include "device_ops.hpp"
#include "mmvram/model/vcu_semantics.hpp"

#include <cuda_runtime.h>

#include <algorithm>

#include "mmvram/gpu/runtime/device.hpp"

namespace mmv::cuda_ops {

using gpu::cuda_impl::allocate;
using gpu::cuda_impl::check;
using vcu::wide;

template <class F>
__global__ void for_each_kernel(std::int64_t n, F f) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) f(i);
}

// Runs f(i) for i in [0, n) on the context's stream (grid-stride, 256 threads a block, at most
// 32 blocks per SM of the current device).
template <class F>
void for_each(const context& c, std::int64_t n, F f) {
  if (n <= 0) return;
  const std::int64_t blocks = std::min<std::int64_t>((n + 255) / 256, std::int64_t(gpu::runtime::sm_count()) * 32);
  for_each_kernel<<<static_cast<unsigned>(blocks), 256, 0, c.stream>>>(n, f);
  check(cudaGetLastError(), "kernel launch");
}

// Records the first data error of the run (later ones are dropped).
__device__ inline void report(error_slot* err, int kind, std::int64_t seq, std::int64_t index, wide value) {
  if (atomicCAS(&err->kind, 0, -1) == 0) {
    err->seq = seq;
    err->index = index;
    err->value_hi = static_cast<std::int64_t>(value >> 64);
    err->value_lo = static_cast<std::int64_t>(static_cast<unsigned long long>(value));
    __threadfence();
    atomicExch(&err->kind, kind);
  }
}

// v as a B-bit word, or a width error (and 0) when it does not fit.
__device__ inline word checked(const context& c, std::int64_t i, wide v) {
  if (!vcu::fits(v, c.word_bits)) {
    report(c.err, width, c.seq, i, v);
    return 0;
  }
  return static_cast<word>(v);
}

// v rounded to the machine's format.
__device__ inline real rounded(const context& c, real v) { return vcu::rounded(v, c.float32); }

// A 0/1 flag, or a not_a_flag error (read as 0).
__device__ inline word flag(const context& c, std::int64_t i, word f) {
  if (!vcu::is_flag(f)) {
    report(c.err, not_a_flag, c.seq, i, f);
    return 0;
  }
  return f;
}

}  // namespace mmv::cuda_ops
