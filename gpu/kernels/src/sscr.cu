// Host entry points of the SSCR segmented scan (api.hpp, ablation.hpp).
#include "launch.hpp"
#include "mmvram/gpu/device/sscr.cuh"

namespace mmv::gpu {
namespace {

template <class Unit, class P, class T>
void run(const T* x, const std::uint8_t* flags, T* out, std::int64_t n, void* temp, std::size_t& temp_bytes,
         cudaStream_t stream, long long* tile_cycles) {
  const tile::tile_grid grid = detail::place_grid({x, out}, flags, n, P::tile_items, tile_cycles);
  const auto plan = detail::plan_temp(n, P::tile_items, sizeof(std::uint64_t), grid.shift);
  if (!detail::prepare(plan, temp, temp_bytes, stream)) return;
  const auto kernel = grid.shift > 0 ? device::sscr_kernel<T, Unit, tile::shifted_policy<P>>
                                      : device::sscr_kernel<T, Unit, P>;
  constexpr int smem = P::template stage_bytes<T, true>();
  kernel<<<detail::grid_size(kernel, plan.tiles, P::threads, smem), P::threads, smem, stream>>>(
      x, flags, out, n, plan.tiles, static_cast<std::uint64_t*>(temp), detail::tile_counter(plan, temp), grid,
      tile::tile_clock{tile_cycles});
  detail::check(cudaGetLastError(), "sscr_segmented_scan launch");
}

// Variant v on its tile policy (launch.hpp: with_unit_policy).
template <class T>
void run_variant(ablation::variant v, const T* x, const std::uint8_t* flags, T* out, std::int64_t n, void* temp,
                 std::size_t& temp_bytes, cudaStream_t stream, long long* tile_cycles) {
  detail::with_unit_policy<tuning::kernel::sscr_segmented_scan>(v, [&](auto u, auto p) {
    run<typename decltype(u)::type, decltype(p)>(x, flags, out, n, temp, temp_bytes, stream, tile_cycles);
  });
}

}  // namespace

void sscr_segmented_scan(const float* x, const std::uint8_t* flags, float* out, std::int64_t n,
                         void* temp, std::size_t& temp_bytes, cudaStream_t stream) {
  run_variant(ablation::variant::cuda_cores, x, flags, out, n, temp, temp_bytes, stream, nullptr);
}

void sscr_segmented_scan(const std::int32_t* x, const std::uint8_t* flags, std::int32_t* out,
                         std::int64_t n, void* temp, std::size_t& temp_bytes, cudaStream_t stream) {
  run_variant(ablation::variant::cuda_cores, reinterpret_cast<const std::uint32_t*>(x), flags,
              reinterpret_cast<std::uint32_t*>(out), n, temp, temp_bytes, stream, nullptr);
}

namespace ablation {

void sscr_segmented_scan(variant v, const float* x, const std::uint8_t* flags, float* out, std::int64_t n,
                         void* temp, std::size_t& temp_bytes, cudaStream_t stream, long long* tile_cycles) {
  run_variant(v, x, flags, out, n, temp, temp_bytes, stream, tile_cycles);
}

void sscr_segmented_scan(variant v, const std::int32_t* x, const std::uint8_t* flags, std::int32_t* out,
                         std::int64_t n, void* temp, std::size_t& temp_bytes, cudaStream_t stream,
                         long long* tile_cycles) {
  run_variant(v, reinterpret_cast<const std::uint32_t*>(x), flags, reinterpret_cast<std::uint32_t*>(out), n, temp,
              temp_bytes, stream, tile_cycles);
}

int tile_shift(const void* x, const std::uint8_t* flags, const void* out) {
  const tile::tile_grid g = out != nullptr ? detail::place_grid({x, out}, flags, 1, 1, nullptr)
                                           : detail::place_grid({x}, flags, 1, 1, nullptr);
  return g.shift;
}

}  // namespace ablation
}  // namespace mmv::gpu
