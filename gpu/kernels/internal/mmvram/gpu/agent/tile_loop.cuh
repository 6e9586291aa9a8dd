// Agent layer: the persistent tile loop every fused scan kernel runs (CUB's agent idea: one
// place owns the loop over tiles, the look-back and the stores; the in-tile scan is a policy).
// A block takes tiles in order from the global counter (tile/tile_stages) and runs each in
// three phases: reduce (per pass: load, in-tile scan, park the warp-local results in the stage
// and the warp's aggregate in shared memory), prefix (carries between warps, then warp 0 looks
// back for the tile's exclusive prefix, publishes it and claims the next tile) and sweep (per
// pass: read back, add the carries, store; the stage's pass is then free for the next copy).
#pragma once
#include <cstdint>

#include "mmvram/gpu/tile/tile_clock.cuh"

namespace mmv::gpu::agent {

// Runs agent a (matmul_scan_agent, sscr_agent, scd_agent) over the tiles its block claims.
// a.src is the agent's tile_stages; Agent::tile_state carries one tile's per-thread results
// from the reduce passes through the prefix to the sweep. clock: per-tile cycles if set.
template <class Agent>
__device__ __forceinline__ void consume_tiles(Agent& a, std::int64_t tiles, tile::tile_clock clock) {
  constexpr int passes = Agent::policy::passes;
  int s = 0;
  for (std::int64_t t = a.src.first(); t < tiles;) {
    clock.begin();
    typename Agent::tile_state ts;
#pragma unroll
    for (int p = 0; p < passes; ++p) a.reduce_pass(t, s, p, ts);
    __syncthreads();
    a.tile_prefix(t, ts);
    __syncthreads();
    a.src.start_early(s);
#pragma unroll
    for (int p = 0; p < passes; ++p) {
      a.sweep_pass(t, s, p, ts);
      a.src.swept(s, p);
    }
    clock.end(t);
    t = a.src.next(s);
  }
}

}  // namespace mmv::gpu::agent
