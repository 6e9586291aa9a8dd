// Host entry points of the SCD segmented sum (api.hpp).
#include "launch.hpp"
#include "mmvram/gpu/ablation.hpp"
#include "mmvram/gpu/device/scd.cuh"

namespace mmv::gpu {
namespace {

template <warp::unit U, class T>
void run(const T* x, const std::uint8_t* flags, T* sums, std::int64_t* offsets,
         std::int64_t* num_segments, std::int64_t n, void* temp, std::size_t& temp_bytes,
         cudaStream_t stream) {
  const auto plan = detail::plan_temp(n, sizeof(ulonglong2));
  if (!detail::prepare(plan, temp, temp_bytes, stream)) {
    if (temp != nullptr && n <= 0) {  // no segments: *num_segments = 0, offsets[0] = n = 0
      detail::check(cudaMemsetAsync(num_segments, 0, sizeof(std::int64_t), stream), "cudaMemsetAsync");
      detail::check(cudaMemsetAsync(offsets, 0, sizeof(std::int64_t), stream), "cudaMemsetAsync");
    }
    return;
  }
  const auto kernel = device::scd_kernel<T, U>;
  const bool aligned = detail::aligned_to(x, 16) && detail::aligned_to(flags, 16);
  constexpr int smem = tile::stage_bytes<T, true>();
  kernel<<<detail::grid_size(kernel, plan.tiles, smem), tile::kThreads, smem, stream>>>(
      x, flags, sums, offsets, num_segments, n, plan.tiles, static_cast<ulonglong2*>(temp),
      detail::tile_counter(plan, temp), aligned);
  detail::check(cudaGetLastError(), "scd_segmented_sum launch");
}

}  // namespace

void scd_segmented_sum(const float* x, const std::uint8_t* flags, float* sums, std::int64_t* offsets,
                       std::int64_t* num_segments, std::int64_t n, void* temp, std::size_t& temp_bytes,
                       cudaStream_t stream) {
  run<warp::unit::cuda_cores>(x, flags, sums, offsets, num_segments, n, temp, temp_bytes, stream);
}

void scd_segmented_sum(const std::int32_t* x, const std::uint8_t* flags, std::int32_t* sums,
                       std::int64_t* offsets, std::int64_t* num_segments, std::int64_t n, void* temp,
                       std::size_t& temp_bytes, cudaStream_t stream) {
  run<warp::unit::cuda_cores>(reinterpret_cast<const std::uint32_t*>(x), flags, reinterpret_cast<std::uint32_t*>(sums), offsets,
      num_segments, n, temp, temp_bytes, stream);
}

namespace tensor_cores {

void scd_segmented_sum(const float* x, const std::uint8_t* flags, float* sums, std::int64_t* offsets,
                       std::int64_t* num_segments, std::int64_t n, void* temp, std::size_t& temp_bytes,
                       cudaStream_t stream) {
  run<warp::unit::tensor_cores>(x, flags, sums, offsets, num_segments, n, temp, temp_bytes, stream);
}

void scd_segmented_sum(const std::int32_t* x, const std::uint8_t* flags, std::int32_t* sums,
                       std::int64_t* offsets, std::int64_t* num_segments, std::int64_t n, void* temp,
                       std::size_t& temp_bytes, cudaStream_t stream) {
  run<warp::unit::tensor_cores>(reinterpret_cast<const std::uint32_t*>(x), flags, reinterpret_cast<std::uint32_t*>(sums),
                              offsets, num_segments, n, temp, temp_bytes, stream);
}

}  // namespace tensor_cores
}  // namespace mmv::gpu
