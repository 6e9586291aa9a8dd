// Host entry points of the SCD segmented sum (api.hpp, ablation.hpp).
#include "launch.hpp"
#include "mmvram/gpu/device/scd.cuh"

namespace mmv::gpu {
namespace {

template <class Unit, class P, class T>
void run(const T* x, const std::uint8_t* flags, T* sums, std::int64_t* offsets, std::int64_t* num_segments,
         std::int64_t n, void* temp, std::size_t& temp_bytes, cudaStream_t stream, long long* tile_cycles) {
  const tile::tile_grid grid = detail::place_grid({x}, flags, n, P::tile_items, tile_cycles);
  const auto plan = detail::plan_temp(n, P::tile_items, sizeof(ulonglong2), grid.shift);
  if (!detail::prepare(plan, temp, temp_bytes, stream)) {
    if (temp != nullptr && n <= 0) {  // no segments: *num_segments = 0, offsets[0] = n = 0
      detail::check(cudaMemsetAsync(num_segments, 0, sizeof(std::int64_t), stream), "cudaMemsetAsync");
      detail::check(cudaMemsetAsync(offsets, 0, sizeof(std::int64_t), stream), "cudaMemsetAsync");
    }
    return;
  }
  const auto kernel = grid.shift > 0 ? device::scd_kernel<T, Unit, tile::shifted_policy<P>>
                                      : device::scd_kernel<T, Unit, P>;
  constexpr int smem = P::template stage_bytes<T, true>();
  kernel<<<detail::grid_size(kernel, plan.tiles, P::threads, smem), P::threads, smem, stream>>>(
      x, flags, sums, offsets, num_segments, n, plan.tiles, static_cast<ulonglong2*>(temp),
      detail::tile_counter(plan, temp), grid, tile::tile_clock{tile_cycles});
  detail::check(cudaGetLastError(), "scd_segmented_sum launch");
}

// Variant v on its tile policy (launch.hpp: with_unit_policy).
template <class T>
void run_variant(ablation::variant v, const T* x, const std::uint8_t* flags, T* sums, std::int64_t* offsets,
                 std::int64_t* num_segments, std::int64_t n, void* temp, std::size_t& temp_bytes,
                 cudaStream_t stream, long long* tile_cycles) {
  detail::with_unit_policy<tuning::kernel::scd_segmented_sum>(v, [&](auto u, auto p) {
    run<typename decltype(u)::type, decltype(p)>(x, flags, sums, offsets, num_segments, n, temp, temp_bytes, stream,
                                                 tile_cycles);
  });
}

}  // namespace

void scd_segmented_sum(const float* x, const std::uint8_t* flags, float* sums, std::int64_t* offsets,
                       std::int64_t* num_segments, std::int64_t n, void* temp, std::size_t& temp_bytes,
                       cudaStream_t stream) {
  run_variant(ablation::variant::cuda_cores, x, flags, sums, offsets, num_segments, n, temp, temp_bytes, stream,
              nullptr);
}

void scd_segmented_sum(const std::int32_t* x, const std::uint8_t* flags, std::int32_t* sums,
                       std::int64_t* offsets, std::int64_t* num_segments, std::int64_t n, void* temp,
                       std::size_t& temp_bytes, cudaStream_t stream) {
  run_variant(ablation::variant::cuda_cores, reinterpret_cast<const std::uint32_t*>(x), flags,
              reinterpret_cast<std::uint32_t*>(sums), offsets, num_segments, n, temp, temp_bytes, stream, nullptr);
}

namespace ablation {

void scd_segmented_sum(variant v, const float* x, const std::uint8_t* flags, float* sums, std::int64_t* offsets,
                       std::int64_t* num_segments, std::int64_t n, void* temp, std::size_t& temp_bytes,
                       cudaStream_t stream, long long* tile_cycles) {
  run_variant(v, x, flags, sums, offsets, num_segments, n, temp, temp_bytes, stream, tile_cycles);
}

void scd_segmented_sum(variant v, const std::int32_t* x, const std::uint8_t* flags, std::int32_t* sums,
                       std::int64_t* offsets, std::int64_t* num_segments, std::int64_t n, void* temp,
                       std::size_t& temp_bytes, cudaStream_t stream, long long* tile_cycles) {
  run_variant(v, reinterpret_cast<const std::uint32_t*>(x), flags, reinterpret_cast<std::uint32_t*>(sums), offsets,
              num_segments, n, temp, temp_bytes, stream, tile_cycles);
}

}  // namespace ablation
}  // namespace mmv::gpu
