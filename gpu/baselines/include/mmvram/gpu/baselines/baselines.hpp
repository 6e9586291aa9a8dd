// Host API of the baselines that mmvram's kernels are measured against: a device-to-device
// copy, CUB scans and segmented reductions, and two CUDA-core (no tensor core) segmented scans.
// Conventions as in mmvram/gpu/api.hpp: device pointers, 64-bit sizes, CUB-style temp storage
// (temp == nullptr: set temp_bytes and return), asynchronous on `stream`, mmv::gpu::cuda_error
// on failure, uint8 flags with position 0 always starting a segment.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "mmvram/gpu/api.hpp"

namespace mmv::gpu::baselines {

// cudaMemcpyAsync device to device: the bandwidth ceiling (bytes read + bytes written).
void device_copy(const void* in, void* out, std::size_t bytes, cudaStream_t stream = nullptr);

// cub::DeviceReduce::Sum into out[0]: the read-only ceiling (each item read once, nothing
// written per item), measured beside the copy because a read-only kernel beats copy bandwidth.
void cub_reduce_sum(const float* in, float* out, std::int64_t n, void* temp,
                    std::size_t& temp_bytes, cudaStream_t stream = nullptr);
void cub_reduce_sum(const std::int32_t* in, std::int32_t* out, std::int64_t n, void* temp,
                    std::size_t& temp_bytes, cudaStream_t stream = nullptr);

// cub::DeviceScan::InclusiveSum (int32 wraps around).
void cub_inclusive_sum(const float* in, float* out, std::int64_t n, void* temp,
                       std::size_t& temp_bytes, cudaStream_t stream = nullptr);
void cub_inclusive_sum(const std::int32_t* in, std::int32_t* out, std::int64_t n, void* temp,
                       std::size_t& temp_bytes, cudaStream_t stream = nullptr);

// cub::DeviceScan::InclusiveSumByKey with int32 segment ids as keys (make_segment_keys).
void cub_inclusive_sum_by_key(const std::int32_t* keys, const float* x, float* out, std::int64_t n,
                              void* temp, std::size_t& temp_bytes, cudaStream_t stream = nullptr);
void cub_inclusive_sum_by_key(const std::int32_t* keys, const std::int32_t* x, std::int32_t* out,
                              std::int64_t n, void* temp, std::size_t& temp_bytes,
                              cudaStream_t stream = nullptr);

// The same with uint8 keys (segment id mod 256, make_segment_keys): the key format that moves
// the fewest bytes, 1 per item like the flags.
void cub_inclusive_sum_by_key(const std::uint8_t* keys, const float* x, float* out, std::int64_t n,
                              void* temp, std::size_t& temp_bytes, cudaStream_t stream = nullptr);
void cub_inclusive_sum_by_key(const std::uint8_t* keys, const std::int32_t* x, std::int32_t* out,
                              std::int64_t n, void* temp, std::size_t& temp_bytes,
                              cudaStream_t stream = nullptr);

// cub::DeviceSegmentedScan::InclusiveSegmentedSum over [offsets[k], offsets[k+1]) from the CCCL
// headers of the PyPI package nvidia-cuda-cccl (newer than the toolkit's CUB); available only
// when the build found them (MMVRAM_HAVE_CCCL_SEGMENTED_SCAN), else cuda_error saying so.
bool cccl_segmented_scan_available();
void cccl_inclusive_segmented_sum(const float* x, const std::int64_t* offsets,
                                  std::int64_t num_segments, float* out, void* temp,
                                  std::size_t& temp_bytes, cudaStream_t stream = nullptr);
void cccl_inclusive_segmented_sum(const std::int32_t* x, const std::int64_t* offsets,
                                  std::int64_t num_segments, std::int32_t* out, void* temp,
                                  std::size_t& temp_bytes, cudaStream_t stream = nullptr);

// cub::DeviceScan::InclusiveScan on (flag, value) pairs with the Schwartz operator; the pairs
// are formed and split by iterators (no pair array in memory).
void cub_flag_pair_scan(const float* x, const std::uint8_t* flags, float* out, std::int64_t n,
                        void* temp, std::size_t& temp_bytes, cudaStream_t stream = nullptr);
void cub_flag_pair_scan(const std::int32_t* x, const std::uint8_t* flags, std::int32_t* out,
                        std::int64_t n, void* temp, std::size_t& temp_bytes,
                        cudaStream_t stream = nullptr);

// cub::DeviceSegmentedReduce::Sum over segments [offsets[k], offsets[k+1]), k < num_segments
// (offsets from make_segment_offsets).
void cub_segmented_reduce_sum(const float* x, const std::int64_t* offsets, std::int64_t num_segments,
                              float* sums, void* temp, std::size_t& temp_bytes,
                              cudaStream_t stream = nullptr);
void cub_segmented_reduce_sum(const std::int32_t* x, const std::int64_t* offsets,
                              std::int64_t num_segments, std::int32_t* sums, void* temp,
                              std::size_t& temp_bytes, cudaStream_t stream = nullptr);

// CUDA-core single-pass segmented scans (decoupled look-back across 4096-item tiles):
// flag transform = Schwartz-operator warp scans; min index = Sengupta et al. warp scans.
void vcu_flag_transform_scan(const float* x, const std::uint8_t* flags, float* out, std::int64_t n,
                             void* temp, std::size_t& temp_bytes, cudaStream_t stream = nullptr);
void vcu_flag_transform_scan(const std::int32_t* x, const std::uint8_t* flags, std::int32_t* out,
                             std::int64_t n, void* temp, std::size_t& temp_bytes,
                             cudaStream_t stream = nullptr);
void vcu_min_index_scan(const float* x, const std::uint8_t* flags, float* out, std::int64_t n,
                        void* temp, std::size_t& temp_bytes, cudaStream_t stream = nullptr);
void vcu_min_index_scan(const std::int32_t* x, const std::uint8_t* flags, std::int32_t* out,
                        std::int64_t n, void* temp, std::size_t& temp_bytes,
                        cudaStream_t stream = nullptr);
constexpr std::int64_t vcu_tile_size = 4096;

// Preparation, outside any timed region. keys[i] = number of segment starts in [0, i] as int32
// or uint8 (wrapping, so neighbouring segments always differ).
void make_segment_keys(const std::uint8_t* flags, std::int32_t* keys, std::int64_t n, void* temp,
                       std::size_t& temp_bytes, cudaStream_t stream = nullptr);
void make_segment_keys(const std::uint8_t* flags, std::uint8_t* keys, std::int64_t n, void* temp,
                       std::size_t& temp_bytes, cudaStream_t stream = nullptr);
// offsets[k] = first index of segment k, *num_segments (device) = count, offsets[count] = n;
// offsets needs room for (number of segments + 1) values.
void make_segment_offsets(const std::uint8_t* flags, std::int64_t* offsets,
                          std::int64_t* num_segments, std::int64_t n, void* temp,
                          std::size_t& temp_bytes, cudaStream_t stream = nullptr);

}  // namespace mmv::gpu::baselines
