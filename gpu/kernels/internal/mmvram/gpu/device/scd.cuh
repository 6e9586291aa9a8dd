// Device layer: SCD segmented sum, one pass over memory: a persistent grid taking tiles in
// order, each run by an SCD agent with a value chain and a start-count chain: V0 (Unit::scd_runs)
// by agent/scd_runs (lanes of consecutive items, its own tile loop), the tensor-core variants by
// agent/scd (the SSCR pipeline, DIFFERENTIATION at the starts) with their in-tile scans on Unit
// (agent/unit_policy).
#pragma once
#include <cstdint>

#include "mmvram/gpu/agent/scd.cuh"
#include "mmvram/gpu/agent/scd_runs.cuh"

namespace mmv::gpu::device {

// For segment k (k-th start, position 0 always one): offsets[k] = its start, sums[k] = its sum; the
// last tile writes *num_segments = K, offsets[K] = n and the last segment's sum. desc: two zeroed
// words per tile, counter zeroed; grid: where the tiles sit (tile::tile_grid; x, flags). Dynamic
// shared memory: P::stage_bytes<T, true>(). Unit: the unit policy (api.hpp: agent::v0_cuda_cores;
// ablation.hpp: the others). clock: per-tile cycles if its buffer is set.
template <class T, class Unit, class P = tile::segmented_policy>
__global__ void __launch_bounds__(P::threads, P::min_blocks)
    scd_kernel(const T* x, const std::uint8_t* flags, T* sums, std::int64_t* offsets,
               std::int64_t* num_segments, std::int64_t n, std::int64_t tiles, ulonglong2* desc,
               unsigned long long* counter, tile::tile_grid grid, tile::tile_clock clock) {
  extern __shared__ __align__(128) unsigned char stages[];
  __shared__ T tile_excl;
  __shared__ std::uint64_t tile_count;
  __shared__ unsigned long long slot;
  __shared__ std::uint64_t bars[P::stages * P::passes];
  if constexpr (Unit::scd_runs) {
    using agent_t = agent::scd_runs_agent<T, P>;
    __shared__ T warp_value[agent_t::kSpans];
    __shared__ std::uint32_t warp_count[agent_t::kSpans], split[agent_t::kSpans];
    __shared__ T side_val[agent_t::kSpans * agent_t::kSide];
    __shared__ std::uint8_t side_pos[agent_t::kSpans * agent_t::kSide];
    agent_t a{{warp_value, warp_count, split, &tile_excl, &tile_count, &slot, bars, side_val, side_pos},
              stages, x, flags, sums, offsets, num_segments, n, tiles, desc, counter, grid};
    a.consume(clock);
  } else {
    using agent_t = agent::scd_agent<T, Unit, P>;
    __shared__ warp::seg<T> warp_span[P::passes * P::warps];
    __shared__ std::uint32_t warp_count[P::passes * P::warps];
    __shared__ T slots[Unit::slots_per_warp > 0 ? P::warps * Unit::slots_per_warp : 1];
    __shared__ typename agent_t::sweep_entry sweep[P::warps * agent_t::kSweep];
    agent_t a{{warp_span, warp_count, &tile_excl, &tile_count, &slot, bars, slots, sweep}, stages, x, flags, sums, offsets, num_segments, n, tiles, desc, counter, grid};
    agent::consume_tiles(a, tiles, clock);
  }
}

}  // namespace mmv::gpu::device
