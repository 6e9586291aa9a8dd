// mmvram kernels stress, its cases (stress.cpp runs them from several threads): each drawn
// from its case seed with the one generator (mmv::inputs::stream; values and flags keyed by the
// seed), run on the caller's stream in buffers sized once per worker, outputs poisoned (0xff)
// with guards before and after, and compared with the CPU reference.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels.hpp"
#include "mmvram/gpu/runtime/buffer.hpp"

namespace mmv::tool::kernels {

constexpr std::size_t kGuard = 64;      // poisoned bytes before and after every output
constexpr std::int64_t kMaxOffset = 15;  // items past an aligned pointer, at most
constexpr unsigned char kPoison = 0xff;

// Host buffers are page-locked whatever their size: the async copies on a worker's stream need it.
constexpr auto kPinned = runtime::pinning::always;

// One worker's device and host buffers, sized once for max_n (no allocation in the loop: a
// cudaFree would synchronize the device and hide the concurrency under test).
struct fused_buffers {
  std::int64_t min_n, max_n;
  std::size_t out_bytes, off_bytes, temp_bytes;
  runtime::device_buffer x, flags, out, offsets, count, temp;
  runtime::host_buffer hx, hf, hout, hoff, hcount;

  fused_buffers(std::int64_t lo, std::int64_t n, std::size_t temp_size);
};

// The largest temporary storage any kernel of ks asks for at max_n (f32 or i32).
std::size_t temp_needed(const std::vector<const kernel_info*>& ks, std::int64_t max_n);

// One case of fused kernel k (ours or ablation) drawn from case_seed (size, type, distribution, pointer offsets)
// on `stream` in b; "" when it passed, else the case and what was wrong. Throws cuda_error
// when a CUDA call fails.
std::string fused_case(const kernel_info& k, std::uint64_t case_seed, fused_buffers& b, cudaStream_t stream);

// State-passing sizes: at most this many chunks and lanes per case.
constexpr std::int64_t kMaxChunks = 2500;
constexpr int kMaxHeads = 4, kMaxRows = 8, kMaxCols = 64;
constexpr std::int64_t kMaxStates = kMaxChunks * kMaxHeads * kMaxRows * kMaxCols;

// One worker's buffers for the state-passing cases, sized for the largest.
struct state_buffers {
  runtime::device_buffer local{2 * kGuard + 4 * std::size_t(kMaxStates + 4)}, decay{4 * std::size_t(kMaxChunks * kMaxHeads * kMaxRows)},
      starts{std::size_t(kMaxChunks) + 1}, states{2 * kGuard + 4 * std::size_t(kMaxStates + 4)};
  runtime::host_buffer hlocal{4 * std::size_t(kMaxStates), kPinned},
      hstates{2 * kGuard + 4 * std::size_t(kMaxStates + 4), kPinned};
};

// One state-passing case drawn from case_seed (shape, layout, method, fp32 or bf16 data,
// unaligned pointers) on `stream` in b; sets name to the method's kernel name. "" when it
// passed, else the case and what was wrong. Throws cuda_error when a CUDA call fails.
std::string state_passing_case(std::uint64_t case_seed, state_buffers& b, cudaStream_t stream, std::string& name);

}  // namespace mmv::tool::kernels
