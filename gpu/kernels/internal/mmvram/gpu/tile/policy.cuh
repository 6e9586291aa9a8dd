// Tile layer: the tuning of the fused kernels' skeleton as one policy type (CUB's idea), so a
// variant is a template instantiation. A pass is 8 warps × 512 items (the warp layout fixes 16
// items per thread); a tile is `Passes` passes held in `Stages` shared-memory stages; MinBlocks
// is the blocks per SM asked of the compiler (it caps the registers).
#pragma once
#include <type_traits>

#include "mmvram/gpu/tile/tile_io.cuh"
#include "mmvram/gpu/tuning.hpp"

namespace mmv::gpu::tile {

template <int Passes, int Stages, int MinBlocks>
struct tile_policy {
  static_assert(Passes >= 1 && (Stages == 1 || Stages == 2) && MinBlocks >= 1);
  static constexpr int passes = Passes;
  static constexpr int stages = Stages;  // 1: the next tile's copy starts pass by pass as the current is stored
  static constexpr int min_blocks = MinBlocks;
  static constexpr int threads = kThreads;
  static constexpr int warps = kWarps;  // fixed: warp_prefix.cuh and the kernels' arrays assume it
  static constexpr int tile_items = Passes * kPassItems;
  static constexpr bool shifted = false;  // tile_stages: the tile grid may be shifted (tile_grid)

  // Dynamic shared memory a block needs: its stages of values (and of flag bytes).
  template <class T, bool Flags>
  static constexpr int stage_bytes() {
    return Stages * tile_items * int(sizeof(T) + (Flags ? 1 : 0));
  }
};

// Policy P for a tile grid shifted by tile_grid::shift > 0 items: its own kernel, so the aligned
// one keeps its code (the shift's bounds checks and index arithmetic cost it registers).
template <class P>
struct shifted_policy : P {
  static constexpr bool shifted = true;
};

// Candidate I of kernel K's tile policies (mmvram/gpu/tuning.hpp: which one a V0 call runs is
// chosen per device at run time). Candidate 0 is the default, measured at n = 2^28 against other
// pass and stage counts (1, 3 or 6 passes, two stages: docs/gpu_matrix_unit.md#what-could-close-the-gaps):
// 4 passes, one stage; the unsegmented scan fits 3 blocks per SM, the segmented kernels (more
// registers) 2. The tensor-core variants V1-V3 run it everywhere.
template <tuning::kernel K, int I>
using candidate_policy = tile_policy<tuning::candidates(K)[I].passes, tuning::candidates(K)[I].stages,
                                     tuning::candidates(K)[I].min_blocks>;
using scan_policy = candidate_policy<tuning::kernel::matmul_scan, 0>;
using segmented_policy = candidate_policy<tuning::kernel::sscr_segmented_scan, 0>;
static_assert(std::is_same_v<segmented_policy, candidate_policy<tuning::kernel::scd_segmented_sum, 0>>);

}  // namespace mmv::gpu::tile
