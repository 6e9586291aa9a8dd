// cub::DeviceSegmentedScan from the CCCL of PyPI's nvidia-cuda-cccl (CMake puts its include
// directory before the toolkit's for this file only). Its one worker scans each segment in one
// thread block, so a single long segment runs on one SM: that is the rival as shipped.
#include <cub/device/device_segmented_scan.cuh>

#include "cccl_segmented_scan.hpp"

namespace mmv::gpu::baselines::cccl {

cudaError_t inclusive_segmented_sum(const float* x, const std::int64_t* offsets, std::int64_t num_segments,
                                    float* out, void* temp, std::size_t& temp_bytes, cudaStream_t stream) {
  return cub::DeviceSegmentedScan::InclusiveSegmentedSum(temp, temp_bytes, x, out, offsets, offsets + 1,
                                                         num_segments, stream);
}

cudaError_t inclusive_segmented_sum(const std::uint32_t* x, const std::int64_t* offsets,
                                    std::int64_t num_segments, std::uint32_t* out, void* temp,
                                    std::size_t& temp_bytes, cudaStream_t stream) {
  return cub::DeviceSegmentedScan::InclusiveSegmentedSum(temp, temp_bytes, x, out, offsets, offsets + 1,
                                                         num_segments, stream);
}

}  // namespace mmv::gpu::baselines::cccl
