// Device layer: SSCR segmented scan, one pass over memory: a persistent grid taking tiles in
// order, each run by the SSCR agent (agent/sscr) with the in-tile scans of warp blocks holding a
// start on Unit (agent/unit_policy: V0 and V1 in-lane scans and REVERT, V2 row scans repaired at
// the row, V3 the whole warp block and REVERT by a gather).
#pragma once
#include <cstdint>

#include "mmvram/gpu/agent/sscr.cuh"

namespace mmv::gpu::device {

// out[i] = x[s] + ... + x[i], s = the last start <= i (flags[s] != 0, or s = 0). desc: one zeroed
// word per tile, counter zeroed; grid: where the tiles sit (tile::tile_grid; x, flags, out).
// Dynamic shared memory: P::stage_bytes<T, true>(). Unit: the unit policy (api.hpp:
// agent::v0_cuda_cores; ablation.hpp: the others). clock: per-tile cycles if its buffer is set.
template <class T, class Unit, class P = tile::segmented_policy>
__global__ void __launch_bounds__(P::threads, P::min_blocks)
    sscr_kernel(const T* x, const std::uint8_t* flags, T* out, std::int64_t n, std::int64_t tiles,
                std::uint64_t* desc, unsigned long long* counter, tile::tile_grid grid, tile::tile_clock clock) {
  using agent_t = agent::sscr_agent<T, Unit, P>;
  extern __shared__ __align__(128) unsigned char stages[];
  __shared__ warp::seg<T> warp_span[P::passes * P::warps];
  __shared__ T tile_excl;
  __shared__ unsigned long long slot;
  __shared__ std::uint64_t bars[P::stages * P::passes];
  __shared__ T slots[Unit::slots_per_warp > 0 ? P::warps * Unit::slots_per_warp : 1];
  agent_t a{{warp_span, &tile_excl, &slot, bars, slots}, stages, x, flags, out, n, tiles, desc, counter, grid};
  agent::consume_tiles(a, tiles, clock);
}

}  // namespace mmv::gpu::device
