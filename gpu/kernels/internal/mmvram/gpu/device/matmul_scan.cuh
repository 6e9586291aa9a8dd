// Device layer: unsegmented MatMulScan, one pass over memory: a persistent grid taking tiles of
// P::passes × 4096 items in order (tile/tile_stages, tuned by a tile/policy type), each run by
// the MatMulScan agent (agent/matmul_scan) with the in-tile scans on Unit (agent/unit_policy).
#pragma once
#include <cstdint>

#include "mmvram/gpu/agent/matmul_scan.cuh"

namespace mmv::gpu::device {

// out[i] = in[0] + ... + in[i] for i < n; T = float or std::uint32_t (wrapping). desc: one zeroed
// word per tile, counter zeroed; grid: where the tiles sit (tile::tile_grid; in and out). Dynamic
// shared memory: P::stage_bytes<T, false>(). Unit: the unit policy (api.hpp: agent::v0_cuda_cores;
// ablation.hpp: the others). clock: per-tile cycles if its buffer is set (tile/tile_clock).
template <class T, class Unit, class P = tile::scan_policy>
__global__ void __launch_bounds__(P::threads, P::min_blocks)
    matmul_scan_kernel(const T* in, T* out, std::int64_t n, std::int64_t tiles, std::uint64_t* desc,
                       unsigned long long* counter, tile::tile_grid grid, tile::tile_clock clock) {
  using agent_t = agent::matmul_scan_agent<T, Unit, P>;
  extern __shared__ __align__(128) unsigned char stages[];
  __shared__ T warp_total[P::passes * P::warps];
  __shared__ T tile_excl;
  __shared__ unsigned long long slot;
  __shared__ std::uint64_t bars[P::stages * P::passes];
  agent_t a{{warp_total, &tile_excl, &slot, bars}, stages, in, out, n, tiles, desc, counter, grid};
  agent::consume_tiles(a, tiles, clock);
}

}  // namespace mmv::gpu::device
