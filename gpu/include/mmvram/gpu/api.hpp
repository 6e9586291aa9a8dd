// Host API of mmvram's CUDA kernels (gpu/). All pointers are device pointers; sizes are 64-bit.
// Temporary storage follows CUB's convention: call with temp == nullptr to get temp_bytes, then
// call again with a buffer of that size. Every call is asynchronous on `stream` and throws
// mmv::gpu::cuda_error when a CUDA call or a launch fails. Flags are uint8 0/1; position 0
// always starts a segment whatever flags[0] holds.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace mmv::gpu {

struct cuda_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What runs on the tensor cores: the in-tile prefix products (data × constant 0/1 matrices,
// mma.sync m16n8k16). They are a small part of each kernel's SASS: HMMA/IMMA are 3.4% (float) and
// 4.0% (int32) of matmul_scan's instructions, 2.3% / 2.8% of SSCR's, 1.5% / 1.8% of SCD's (static
// counts for sm_90a, experiments/results/sass_mix_sm90a.json); loads, splits, carries, REVERT and
// the look-back run on the CUDA cores (gpu/README.md).
//
// Pointers need no alignment, but only 16-byte-aligned x, flags and out take the bulk-copy
// path: unaligned ones cost 1.2-2.4x the time (H100, n = 2^28; docs/gpu_matrix_unit.md).
// float special values: inf and NaN give each result the class a sequential fp32 sum gives (a
// block whose tensor-core totals are non-finite is rescanned on the CUDA cores); the bf16 split
// drops what an item holds below 2^-133, so subnormal items may be lost (at most FLT_MIN each).

// Unsegmented inclusive scan; its in-tile scans on the tensor cores (MatMulScan tile scan +
// decoupled look-back).
// float: exact to fp32 rounding (values split into bf16 parts); int32: exact (int8 slices,
// wrap-around on overflow like integer addition in C++ two's complement).
void matmul_scan(const float* in, float* out, std::int64_t n, void* temp, std::size_t& temp_bytes,
                 cudaStream_t stream = nullptr);
void matmul_scan(const std::int32_t* in, std::int32_t* out, std::int64_t n, void* temp,
                 std::size_t& temp_bytes, cudaStream_t stream = nullptr);

// SSCR segmented inclusive scan: speculative (unsegmented) tensor-core scans, REVERT and
// segmented joins on CUDA cores (no fp32 subtraction), segmented decoupled look-back across
// tiles. float: fp32 summation of each segment's own items; int32: exact, wrapping.
void sscr_segmented_scan(const float* x, const std::uint8_t* flags, float* out, std::int64_t n,
                         void* temp, std::size_t& temp_bytes, cudaStream_t stream = nullptr);
void sscr_segmented_scan(const std::int32_t* x, const std::uint8_t* flags, std::int32_t* out,
                         std::int64_t n, void* temp, std::size_t& temp_bytes,
                         cudaStream_t stream = nullptr);

// SCD segmented sum (the SSCR pipeline, then each sum read off just before the next start; the
// starts are ranked by a flag scan on the tensor cores): sums[k] = sum of segment k,
// offsets[k] = its first index, for k < *num_segments (written to device memory), and
// offsets[*num_segments] = n.
// sums needs room for n values and offsets for n + 1.
void scd_segmented_sum(const float* x, const std::uint8_t* flags, float* sums,
                       std::int64_t* offsets, std::int64_t* num_segments, std::int64_t n,
                       void* temp, std::size_t& temp_bytes, cudaStream_t stream = nullptr);
void scd_segmented_sum(const std::int32_t* x, const std::uint8_t* flags, std::int32_t* sums,
                       std::int64_t* offsets, std::int64_t* num_segments, std::int64_t n,
                       void* temp, std::size_t& temp_bytes, cudaStream_t stream = nullptr);

}  // namespace mmv::gpu
