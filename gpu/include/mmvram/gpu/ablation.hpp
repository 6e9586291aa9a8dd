// The ablation's tensor-core variants (V1): api.hpp's kernels with their in-tile scans on the
// tensor cores (mma.sync m16n8k16: fp32 as three bf16 parts, int32 as four byte planes, times
// constant 0/1 matrices) and everything else (tiles, staging, REVERT, look-back) the same.
// api.hpp's kernels run those scans on the CUDA cores, since that measured faster on the H100
// (docs/gpu_matrix_unit.md); these are kept to measure what the tensor cores add. Same
// contracts as api.hpp; float inf and NaN inputs give the class a sequential fp32 sum gives (a
// block whose tensor-core totals are non-finite is rescanned on the CUDA cores), but the bf16
// split drops what an item holds below 2^-133 (subnormal items may be lost).
#pragma once
#include "mmvram/gpu/api.hpp"

namespace mmv::gpu::tensor_cores {

// matmul_scan with its 16-item row scans on the tensor cores.
void matmul_scan(const float* in, float* out, std::int64_t n, void* temp, std::size_t& temp_bytes,
                 cudaStream_t stream = nullptr);
void matmul_scan(const std::int32_t* in, std::int32_t* out, std::int64_t n, void* temp,
                 std::size_t& temp_bytes, cudaStream_t stream = nullptr);

// sscr_segmented_scan with its speculative in-lane scans (and start-free row scans) on the
// tensor cores.
void sscr_segmented_scan(const float* x, const std::uint8_t* flags, float* out, std::int64_t n,
                         void* temp, std::size_t& temp_bytes, cudaStream_t stream = nullptr);
void sscr_segmented_scan(const std::int32_t* x, const std::uint8_t* flags, std::int32_t* out,
                         std::int64_t n, void* temp, std::size_t& temp_bytes,
                         cudaStream_t stream = nullptr);

// scd_segmented_sum with its in-lane scans, warp totals and start ranks on the tensor cores.
void scd_segmented_sum(const float* x, const std::uint8_t* flags, float* sums,
                       std::int64_t* offsets, std::int64_t* num_segments, std::int64_t n,
                       void* temp, std::size_t& temp_bytes, cudaStream_t stream = nullptr);
void scd_segmented_sum(const std::int32_t* x, const std::uint8_t* flags, std::int32_t* sums,
                       std::int64_t* offsets, std::int64_t* num_segments, std::int64_t n,
                       void* temp, std::size_t& temp_bytes, cudaStream_t stream = nullptr);

}  // namespace mmv::gpu::tensor_cores
