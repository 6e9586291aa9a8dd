// The CUDA-core segmented scans: the device template instantiated for the two warp scans.
// int32 runs as uint32 (two's complement wrap-around without signed overflow), as api.hpp's do.
#include "mmvram/gpu/baselines/baselines.hpp"
#include "mmvram/gpu/baselines/device/vcu_segmented_scan.cuh"

namespace mmv::gpu::baselines {

static_assert(vcu_tile_size == vcu_tile_items);

void vcu_flag_transform_scan(const float* x, const std::uint8_t* flags, float* out, std::int64_t n,
                             void* temp, std::size_t& temp_bytes, cudaStream_t stream) {
  vcu_segmented_scan<flag_transform_warp_scan>(x, flags, out, n, temp, temp_bytes, stream,
                                               "vcu_flag_transform_scan");
}
void vcu_flag_transform_scan(const std::int32_t* x, const std::uint8_t* flags, std::int32_t* out,
                             std::int64_t n, void* temp, std::size_t& temp_bytes,
                             cudaStream_t stream) {
  vcu_segmented_scan<flag_transform_warp_scan>(reinterpret_cast<const std::uint32_t*>(x), flags,
                                               reinterpret_cast<std::uint32_t*>(out), n, temp, temp_bytes, stream,
                                               "vcu_flag_transform_scan");
}
void vcu_min_index_scan(const float* x, const std::uint8_t* flags, float* out, std::int64_t n,
                        void* temp, std::size_t& temp_bytes, cudaStream_t stream) {
  vcu_segmented_scan<min_index_warp_scan>(x, flags, out, n, temp, temp_bytes, stream,
                                          "vcu_min_index_scan");
}
void vcu_min_index_scan(const std::int32_t* x, const std::uint8_t* flags, std::int32_t* out,
                        std::int64_t n, void* temp, std::size_t& temp_bytes, cudaStream_t stream) {
  vcu_segmented_scan<min_index_warp_scan>(reinterpret_cast<const std::uint32_t*>(x), flags,
                                          reinterpret_cast<std::uint32_t*>(out), n, temp, temp_bytes, stream,
                                          "vcu_min_index_scan");
}

}  // namespace mmv::gpu::baselines
