// Host dispatch shared by the API entry points: error checks, the unit and tile policies of a
// variant (the tile policy tuned per device: tuning.hpp), temporary-storage layout (tile
// descriptors, then the tile counter, both zeroed before each launch) and grid sizing.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>

#include "mmvram/gpu/ablation.hpp"
#include "mmvram/gpu/agent/unit_policy.cuh"
#include "mmvram/gpu/api.hpp"
#include "mmvram/gpu/runtime/device.hpp"
#include "mmvram/gpu/runtime/error.hpp"
#include "mmvram/gpu/tile/policy.cuh"
#include "mmvram/gpu/tuning.hpp"

namespace mmv::gpu::detail {

using runtime::check;

inline bool aligned_to(const void* p, std::size_t a) { return reinterpret_cast<std::uintptr_t>(p) % a == 0; }

// A unit policy type as a value: f below receives one.
template <class Unit>
struct unit_tag {
  using type = Unit;
};

// Calls f(unit_tag<Unit>{}) with the unit policy of variant v (agent/unit_policy.cuh).
template <class F>
void with_unit(ablation::variant v, F&& f) {
  switch (v) {
    case ablation::variant::cuda_cores: return f(unit_tag<agent::v0_cuda_cores>{});
    case ablation::variant::tensor_cores: return f(unit_tag<agent::v1_tensor_cores>{});
    case ablation::variant::tensor_core_rows: return f(unit_tag<agent::v2_tensor_core_rows>{});
    case ablation::variant::tensor_core_warp: return f(unit_tag<agent::v3_tensor_core_warp>{});
  }
  throw cuda_error("mmvram gpu: unknown ablation variant");
}

// Calls f(P{}) with P = candidate i of kernel K's tile policies (tile::candidate_policy).
template <tuning::kernel K, int I = 0, class F>
void with_candidate(int i, F&& f) {
  if (i == I) return f(tile::candidate_policy<K, I>{});
  if constexpr (I + 1 < tuning::kCandidates) return with_candidate<K, I + 1>(i, f);
  throw cuda_error("mmvram gpu: unknown tile policy candidate");
}

// Calls f(unit_tag<Unit>{}, P{}) with the unit policy of variant v and the tile policy it runs
// on the current device (ablation.hpp: tile_items): V0 candidate tuning::current(K), V1-V3
// candidate 0.
template <tuning::kernel K, class F>
void with_unit_policy(ablation::variant v, F&& f) {
  if (v == ablation::variant::cuda_cores)
    return with_candidate<K>(tuning::current(K), [&](auto p) { f(unit_tag<agent::v0_cuda_cores>{}, p); });
  with_unit(v, [&](auto u) { f(u, tile::candidate_policy<K, 0>{}); });
}

// Where the tiles of n items sit (tile::tile_grid) for 4-byte arrays `words` and an optional
// byte array `bytes` (nullptr: none): the shift in items that puts every array on a 16-byte
// boundary at each tile's first item (the byte array's misalignment, or the first word array's),
// if all agree and a tile clock (ceil(n / tile_items) entries: ablation.hpp) can hold the
// tiles; otherwise no shift, and only tiles of 16-byte-aligned arrays are staged.
inline tile::tile_grid place_grid(std::initializer_list<const void*> words, const void* bytes, std::int64_t n,
                                  std::int64_t tile_items, const long long* tile_cycles) {
  const auto mis = [](const void* p) { return int(reinterpret_cast<std::uintptr_t>(p) % 16); };
  const int shift = bytes != nullptr ? mis(bytes) : mis(*words.begin()) / 4;
  bool ok = true;
  for (const void* w : words) ok = ok && mis(w) == 4 * (shift % 4);
  const auto tiles = [&](std::int64_t m) { return n > 0 ? (m + tile_items - 1) / tile_items : 0; };
  if (tile_cycles != nullptr && tiles(n + shift) > tiles(n)) ok = false;
  return ok ? tile::tile_grid{shift, true} : tile::tile_grid{0, false};
}

// The fewest items per tile of any tile policy candidate (tuning.hpp).
inline constexpr std::int64_t kFewestTileItems = [] {
  std::int64_t least = tuning::candidates(tuning::kKernels[0])[0].tile_items();
  for (auto k : tuning::kKernels)
    for (const auto& p : tuning::candidates(k)) least = std::min(least, p.tile_items());
  return least;
}();

// Temporary storage for n items in tiles of tile_items shifted by `shift` (< 16) items, with
// desc_size bytes of descriptors per tile; sized for any shift and any candidate's tiles, so the
// size query (temp == nullptr) asks the same of any pointers, device and tile policy.
struct temp_plan {
  std::int64_t tiles;
  std::size_t desc_bytes, total;
};

inline temp_plan plan_temp(std::int64_t n, std::int64_t tile_items, std::size_t desc_size, int shift) {
  const auto tiles_of = [&](std::int64_t m, std::int64_t t) { return n > 0 ? (m + t - 1) / t : 0; };
  const std::size_t desc = (std::size_t(tiles_of(n + 15, kFewestTileItems)) * desc_size + 255) / 256 * 256;
  return {tiles_of(n + shift, tile_items), desc, desc + 256};
}

// Handles the size query (temp == nullptr) and checks the buffer; true when a launch is due.
inline bool prepare(const temp_plan& p, void* temp, std::size_t& temp_bytes, cudaStream_t stream) {
  if (temp == nullptr) {
    temp_bytes = p.total;
    return false;
  }
  if (temp_bytes < p.total) throw cuda_error("mmvram gpu: temporary storage too small");
  if (!aligned_to(temp, 16)) throw cuda_error("mmvram gpu: temporary storage not 16-byte aligned");
  if (p.tiles == 0) return false;
  check(cudaMemsetAsync(temp, 0, p.total, stream), "cudaMemsetAsync");
  return true;
}

inline unsigned long long* tile_counter(const temp_plan& p, void* temp) {
  return reinterpret_cast<unsigned long long*>(static_cast<char*>(temp) + p.desc_bytes);
}

// A persistent grid: as many blocks of `threads` as fit on the device at once, at most one per
// tile, each with `smem` bytes of dynamic shared memory (the kernel's limit is raised first).
// The SM count is the runtime's cached one; the limit and the occupancy are set and read per
// launch, as they depend on the kernel, smem and the current device (host-side calls only).
template <class Kernel>
int grid_size(Kernel kernel, std::int64_t tiles, int threads, int smem) {
  const int sms = runtime::sm_count();
  int per_sm = 0;
  check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem), "cudaFuncSetAttribute");
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem), "occupancy");
  return int(std::min<std::int64_t>(tiles, std::int64_t(sms) * std::max(per_sm, 1)));
}

}  // namespace mmv::gpu::detail
