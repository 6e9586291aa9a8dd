// Host entry points of the SSCR segmented scan (api.hpp).
#include "launch.hpp"
#include "mmvram/gpu/ablation.hpp"
#include "mmvram/gpu/device/sscr.cuh"

namespace mmv::gpu {
namespace {

template <warp::unit U, class T>
void run(const T* x, const std::uint8_t* flags, T* out, std::int64_t n, void* temp,
         std::size_t& temp_bytes, cudaStream_t stream) {
  const auto plan = detail::plan_temp(n, sizeof(std::uint64_t));
  if (!detail::prepare(plan, temp, temp_bytes, stream)) return;
  const auto kernel = device::sscr_kernel<T, U>;
  const bool aligned = detail::aligned_to(x, 16) && detail::aligned_to(out, 16) && detail::aligned_to(flags, 16);
  constexpr int smem = tile::stage_bytes<T, true>();
  kernel<<<detail::grid_size(kernel, plan.tiles, smem), tile::kThreads, smem, stream>>>(
      x, flags, out, n, plan.tiles, static_cast<std::uint64_t*>(temp), detail::tile_counter(plan, temp),
      aligned);
  detail::check(cudaGetLastError(), "sscr_segmented_scan launch");
}

}  // namespace

void sscr_segmented_scan(const float* x, const std::uint8_t* flags, float* out, std::int64_t n,
                         void* temp, std::size_t& temp_bytes, cudaStream_t stream) {
  run<warp::unit::cuda_cores>(x, flags, out, n, temp, temp_bytes, stream);
}

void sscr_segmented_scan(const std::int32_t* x, const std::uint8_t* flags, std::int32_t* out,
                         std::int64_t n, void* temp, std::size_t& temp_bytes, cudaStream_t stream) {
  run<warp::unit::cuda_cores>(reinterpret_cast<const std::uint32_t*>(x), flags, reinterpret_cast<std::uint32_t*>(out), n, temp,
      temp_bytes, stream);
}

namespace tensor_cores {

void sscr_segmented_scan(const float* x, const std::uint8_t* flags, float* out, std::int64_t n,
                         void* temp, std::size_t& temp_bytes, cudaStream_t stream) {
  run<warp::unit::tensor_cores>(x, flags, out, n, temp, temp_bytes, stream);
}

void sscr_segmented_scan(const std::int32_t* x, const std::uint8_t* flags, std::int32_t* out,
                         std::int64_t n, void* temp, std::size_t& temp_bytes, cudaStream_t stream) {
  run<warp::unit::tensor_cores>(reinterpret_cast<const std::uint32_t*>(x), flags, reinterpret_cast<std::uint32_t*>(out),
                              n, temp, temp_bytes, stream);
}

}  // namespace tensor_cores
}  // namespace mmv::gpu
