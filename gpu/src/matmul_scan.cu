// Host entry points of the unsegmented MatMulScan (api.hpp).
#include "launch.hpp"
#include "mmvram/gpu/ablation.hpp"
#include "mmvram/gpu/device/matmul_scan.cuh"

namespace mmv::gpu {
namespace {

template <warp::unit U, class T>
void run(const T* in, T* out, std::int64_t n, void* temp, std::size_t& temp_bytes, cudaStream_t stream) {
  const auto plan = detail::plan_temp(n, sizeof(std::uint64_t));
  if (!detail::prepare(plan, temp, temp_bytes, stream)) return;
  const auto kernel = device::matmul_scan_kernel<T, U>;
  const bool aligned = detail::aligned_to(in, 16) && detail::aligned_to(out, 16);
  constexpr int smem = tile::stage_bytes<T, false>();
  kernel<<<detail::grid_size(kernel, plan.tiles, smem), tile::kThreads, smem, stream>>>(
      in, out, n, plan.tiles, static_cast<std::uint64_t*>(temp), detail::tile_counter(plan, temp), aligned);
  detail::check(cudaGetLastError(), "matmul_scan launch");
}

}  // namespace

void matmul_scan(const float* in, float* out, std::int64_t n, void* temp, std::size_t& temp_bytes,
                 cudaStream_t stream) {
  run<warp::unit::cuda_cores>(in, out, n, temp, temp_bytes, stream);
}

void matmul_scan(const std::int32_t* in, std::int32_t* out, std::int64_t n, void* temp,
                 std::size_t& temp_bytes, cudaStream_t stream) {
  run<warp::unit::cuda_cores>(reinterpret_cast<const std::uint32_t*>(in), reinterpret_cast<std::uint32_t*>(out), n, temp,
      temp_bytes, stream);
}

namespace tensor_cores {

void matmul_scan(const float* in, float* out, std::int64_t n, void* temp, std::size_t& temp_bytes,
                 cudaStream_t stream) {
  run<warp::unit::tensor_cores>(in, out, n, temp, temp_bytes, stream);
}

void matmul_scan(const std::int32_t* in, std::int32_t* out, std::int64_t n, void* temp,
                 std::size_t& temp_bytes, cudaStream_t stream) {
  run<warp::unit::tensor_cores>(reinterpret_cast<const std::uint32_t*>(in), reinterpret_cast<std::uint32_t*>(out),
                              n, temp, temp_bytes, stream);
}

}  // namespace tensor_cores
}  // namespace mmv::gpu
