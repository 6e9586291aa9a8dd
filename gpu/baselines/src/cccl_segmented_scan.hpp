// Entry points of libmmvram_cccl_segmented_scan.so: cub::DeviceSegmentedScan built against the
// CCCL headers of the PyPI package nvidia-cuda-cccl. Everything else in that library is hidden,
// so its CUB never meets the toolkit's CUB that the rest of mmvram uses. CUB's temp convention.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#define MMVRAM_CCCL_EXPORT __attribute__((visibility("default")))

namespace mmv::gpu::baselines::cccl {

// InclusiveSegmentedSum over [offsets[k], offsets[k+1]), k < num_segments; int32 wraps around
// (summed as uint32). Returns CUB's error code.
MMVRAM_CCCL_EXPORT cudaError_t inclusive_segmented_sum(const float* x, const std::int64_t* offsets,
                                                       std::int64_t num_segments, float* out, void* temp,
                                                       std::size_t& temp_bytes, cudaStream_t stream);
MMVRAM_CCCL_EXPORT cudaError_t inclusive_segmented_sum(const std::uint32_t* x, const std::int64_t* offsets,
                                                       std::int64_t num_segments, std::uint32_t* out,
                                                       void* temp, std::size_t& temp_bytes, cudaStream_t stream);

}  // namespace mmv::gpu::baselines::cccl
