// Tile layer: the optional latency probe of the fused kernels. With a cycle buffer, thread 0 of
// each block reads clock64 when the block begins a tile (claimed, its copy started) and again
// once the tile's last stores are issued (with one stage: after the barrier that follows them),
// and writes the difference for that tile. Without one (the API's calls) it costs one uniform
// branch per tile.
#pragma once
#include <cstdint>

namespace mmv::gpu::tile {

struct tile_clock {
  long long* cycles;  // one entry per tile, or nullptr: nothing recorded
  long long begun = 0;

  // Thread 0 (others: no-op), at the top of a tile.
  __device__ __forceinline__ void begin() {
    if (cycles != nullptr && threadIdx.x == 0) begun = clock64();
  }
  // Thread 0, once tile t's last stores are issued.
  __device__ __forceinline__ void end(std::int64_t t) const {
    if (cycles != nullptr && threadIdx.x == 0) cycles[t] = clock64() - begun;
  }
};

}  // namespace mmv::gpu::tile
