// Host entry points of the unsegmented MatMulScan (api.hpp, ablation.hpp).
#include "launch.hpp"
#include "mmvram/gpu/device/matmul_scan.cuh"

namespace mmv::gpu {
namespace {

template <class Unit, class P, class T>
void run(const T* in, T* out, std::int64_t n, void* temp, std::size_t& temp_bytes, cudaStream_t stream,
         long long* tile_cycles) {
  const tile::tile_grid grid = detail::place_grid({in, out}, nullptr, n, P::tile_items, tile_cycles);
  const auto plan = detail::plan_temp(n, P::tile_items, sizeof(std::uint64_t), grid.shift);
  if (!detail::prepare(plan, temp, temp_bytes, stream)) return;
  const auto kernel = grid.shift > 0 ? device::matmul_scan_kernel<T, Unit, tile::shifted_policy<P>>
                                      : device::matmul_scan_kernel<T, Unit, P>;
  constexpr int smem = P::template stage_bytes<T, false>();
  kernel<<<detail::grid_size(kernel, plan.tiles, P::threads, smem), P::threads, smem, stream>>>(
      in, out, n, plan.tiles, static_cast<std::uint64_t*>(temp), detail::tile_counter(plan, temp), grid,
      tile::tile_clock{tile_cycles});
  detail::check(cudaGetLastError(), "matmul_scan launch");
}

// Variant v on its tile policy (launch.hpp: with_unit_policy). V1 and V2 differ only where a
// warp block holds a start: one kernel serves both here.
template <class T>
void run_variant(ablation::variant v, const T* in, T* out, std::int64_t n, void* temp, std::size_t& temp_bytes,
                 cudaStream_t stream, long long* tile_cycles) {
  detail::with_unit_policy<tuning::kernel::matmul_scan>(v, [&](auto u, auto p) {
    using Unit = typename decltype(u)::type;
    using same = std::conditional_t<std::is_same_v<Unit, agent::v2_tensor_core_rows>, agent::v1_tensor_cores, Unit>;
    run<same, decltype(p)>(in, out, n, temp, temp_bytes, stream, tile_cycles);
  });
}

}  // namespace

void matmul_scan(const float* in, float* out, std::int64_t n, void* temp, std::size_t& temp_bytes,
                 cudaStream_t stream) {
  run_variant(ablation::variant::cuda_cores, in, out, n, temp, temp_bytes, stream, nullptr);
}

void matmul_scan(const std::int32_t* in, std::int32_t* out, std::int64_t n, void* temp,
                 std::size_t& temp_bytes, cudaStream_t stream) {
  run_variant(ablation::variant::cuda_cores, reinterpret_cast<const std::uint32_t*>(in),
              reinterpret_cast<std::uint32_t*>(out), n, temp, temp_bytes, stream, nullptr);
}

namespace ablation {

const char* variant_name(variant v) {
  switch (v) {
    case variant::cuda_cores: return "v0_cuda_cores";
    case variant::tensor_cores: return "v1_tensor_cores";
    case variant::tensor_core_rows: return "v2_tensor_core_rows";
    case variant::tensor_core_warp: return "v3_tensor_core_warp";
  }
  return "?";
}

void matmul_scan(variant v, const float* in, float* out, std::int64_t n, void* temp, std::size_t& temp_bytes,
                 cudaStream_t stream, long long* tile_cycles) {
  run_variant(v, in, out, n, temp, temp_bytes, stream, tile_cycles);
}

void matmul_scan(variant v, const std::int32_t* in, std::int32_t* out, std::int64_t n, void* temp,
                 std::size_t& temp_bytes, cudaStream_t stream, long long* tile_cycles) {
  run_variant(v, reinterpret_cast<const std::uint32_t*>(in), reinterpret_cast<std::uint32_t*>(out), n, temp,
              temp_bytes, stream, tile_cycles);
}

}  // namespace ablation
}  // namespace mmv::gpu
