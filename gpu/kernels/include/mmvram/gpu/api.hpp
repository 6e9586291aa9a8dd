// Host API of mmvram's CUDA kernels (gpu/kernels/). All pointers are device pointers; sizes are 64-bit.
// Temporary storage follows CUB's convention: call with temp == nullptr to get temp_bytes, then
// call again with a buffer of that size. Every call is asynchronous on `stream` and throws
// mmv::gpu::cuda_error (mmvram/gpu/runtime/error.hpp) when a CUDA call or a launch fails. Calls that may run at the same time
// need their own temporary storage (it holds the tile chain and the tile counter), and the
// outputs are complete only once `stream` has finished the call (docs/gpu_testing.md). Flags are uint8 0/1; position 0
// always starts a segment whatever flags[0] holds.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include "mmvram/gpu/runtime/error.hpp"

namespace mmv::gpu {

// Where the work runs. These kernels follow the MMV-RAM algorithms (MatMulScan's tile scans,
// SSCR's speculative scan + REVERT, SCD's differentiation), but none of their work runs on the
// tensor cores: their in-tile scans run on the CUDA cores, running sums in each lane and
// shuffles, no MMA (0 HMMA/IMMA instructions in their SASS). The same kernels with those scans
// on the tensor cores are mmvram/gpu/ablation.hpp (mma.sync m16n8k16); how fast each variant
// runs against these, and why, is measured in docs/gpu_matrix_unit.md (the ablation), and the
// tensor cores' share of each variant's instructions is in the SASS and ncu tables of
// docs/kernels.md ("What runs on the tensor cores") and docs/gpu_matrix_unit.md.
//
// Pointers need no alignment (4-byte x and out). When x, flags and out sit the same h items past
// 16-byte boundaries (x + h on an aligned array, a sub-array), the tiles are shifted by h and
// all but the first and last take the bulk-copy path; pointers whose misalignments differ read
// every tile element by element. What each costs is measured in docs/gpu_matrix_unit.md
// ("Unaligned pointers").
// float: inf and NaN inputs give each result the class a sequential fp32 sum gives (where only
// a partial sum overflows, the class depends on the summation order); subnormals are summed
// like any value.

// Unsegmented inclusive scan: MatMulScan's tile structure (row scans, row carries, warp carries)
// + decoupled look-back. float: fp32 sums in a GPU order; int32: exact, wrap-around on overflow
// like integer addition in C++ two's complement.
void matmul_scan(const float* in, float* out, std::int64_t n, void* temp, std::size_t& temp_bytes,
                 cudaStream_t stream = nullptr);
void matmul_scan(const std::int32_t* in, std::int32_t* out, std::int64_t n, void* temp,
                 std::size_t& temp_bytes, cudaStream_t stream = nullptr);

// SSCR segmented inclusive scan: speculative (unsegmented) in-lane scans, REVERT and segmented
// joins (no fp32 subtraction), segmented decoupled look-back across tiles. float: fp32
// summation of each segment's own items; int32: exact, wrapping.
void sscr_segmented_scan(const float* x, const std::uint8_t* flags, float* out, std::int64_t n,
                         void* temp, std::size_t& temp_bytes, cudaStream_t stream = nullptr);
void sscr_segmented_scan(const std::int32_t* x, const std::uint8_t* flags, std::int32_t* out,
                         std::int64_t n, void* temp, std::size_t& temp_bytes,
                         cudaStream_t stream = nullptr);

// SCD segmented sum (the SSCR pipeline, then each sum read off just before the next start; the
// starts are ranked by a flag scan): sums[k] = sum of segment k, offsets[k] = its first index,
// for k < *num_segments (written to device memory), and offsets[*num_segments] = n.
// sums needs room for n values and offsets for n + 1.
void scd_segmented_sum(const float* x, const std::uint8_t* flags, float* sums,
                       std::int64_t* offsets, std::int64_t* num_segments, std::int64_t n,
                       void* temp, std::size_t& temp_bytes, cudaStream_t stream = nullptr);
void scd_segmented_sum(const std::int32_t* x, const std::uint8_t* flags, std::int32_t* sums,
                       std::int64_t* offsets, std::int64_t* num_segments, std::int64_t n,
                       void* temp, std::size_t& temp_bytes, cudaStream_t stream = nullptr);

}  // namespace mmv::gpu
