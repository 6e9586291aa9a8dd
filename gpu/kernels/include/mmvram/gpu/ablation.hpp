// The ablation: api.hpp's fused kernels with the unit of their in-tile scans as the one
// variable (tiles, staging, REVERT's joins, look-back and stores are the same code), plus a
// per-tile latency probe. Same contracts as api.hpp, with two documented differences for the
// tensor-core variants: float items lose what lies below 2^-133 (the bf16 split; subnormals may
// be lost), and a block whose tensor-core results are non-finite is rescanned on the CUDA
// cores, so inf and NaN inputs still give a sequential fp32 sum's class. V3's fp32 REVERT
// subtracts speculative sums, so its error scales with the sum of |x| over the 512-item warp
// block holding the segment's start, before the start, not with the segment's own items: up to
// 0x1.1p-16 of that sum, derived in docs/gpu_v3_error.md, even at a start, where the answer is x
// (the paper's algorithm in fp32; V3 makes no fp32 accuracy claim there).
#pragma once
#include "mmvram/gpu/api.hpp"
#include "mmvram/gpu/tuning.hpp"

namespace mmv::gpu::ablation {

// Where the in-tile scans run (mma.sync m16n8k16: fp32 as three bf16 parts, int32 as four byte
// planes, times constant 0/1 matrices).
enum class variant {
  cuda_cores,        // V0 (api.hpp): running sums and shuffles, no MMA
  tensor_cores,      // V1: in-lane 4-item scans on the MMA where a warp block holds a start,
                     //     16-item row scans elsewhere; items after a start recomputed
                     //     (int32: minus the in-lane scan before the start)
  tensor_core_rows,  // V2: 16-item row scans on the MMA everywhere, repaired at the row
                     //     (int32: minus the scan before the start; float: recomputed)
  tensor_core_warp,  // V3: the whole 512-item warp block scanned speculatively by two MMA levels
                     //     (row scans, then the row totals; start ranks alike), then the paper's
                     //     REVERT: minus the scan before the item's last start, by a gather
};
// "v0_cuda_cores", "v1_tensor_cores", "v2_tensor_core_rows", "v3_tensor_core_warp"
const char* variant_name(variant v);

// Items of V3's warp block: the speculation block whose scan REVERT subtracts (see the top).
inline constexpr std::int64_t kWarpBlockItems = 512;

// Items per tile of kernel k as variant v on the current device: V0 runs the tile policy
// tuning::current(k) picks (tuning.hpp), V1-V3 candidate 0. tile_cycles below needs
// tiles(k, v, n) entries. Both throw cuda_error as tuning::current does.
std::int64_t tile_items(tuning::kernel k, variant v);
inline std::int64_t tiles(tuning::kernel k, variant v, std::int64_t n) {
  const std::int64_t t = tile_items(k, v);
  return n > 0 ? (n + t - 1) / t : 0;
}

// The items before item 0 in the first tile of the fused kernels for these pointers (out: the
// scans' output; nullptr for the segmented sum, whose sums are not tiled), without tile_cycles:
// tiles, passes and V3's warp blocks start where i + tile_shift is a multiple of their size.
int tile_shift(const void* x, const std::uint8_t* flags, const void* out);

// api.hpp's matmul_scan, sscr_segmented_scan and scd_segmented_sum as variant v. tile_cycles
// (device, optional): clock64 cycles each tile's block spent on it (tile/tile_clock.cuh); with
// it, unaligned pointers whose shifted tiles would be tiles(k, v, n) + 1 read every tile element-wise.
// matmul_scan has no starts, so its V1 and V2 are the same kernel (V3: row totals on the MMA).
void matmul_scan(variant v, const float* in, float* out, std::int64_t n, void* temp,
                 std::size_t& temp_bytes, cudaStream_t stream = nullptr, long long* tile_cycles = nullptr);
void matmul_scan(variant v, const std::int32_t* in, std::int32_t* out, std::int64_t n, void* temp,
                 std::size_t& temp_bytes, cudaStream_t stream = nullptr, long long* tile_cycles = nullptr);

void sscr_segmented_scan(variant v, const float* x, const std::uint8_t* flags, float* out, std::int64_t n,
                         void* temp, std::size_t& temp_bytes, cudaStream_t stream = nullptr,
                         long long* tile_cycles = nullptr);
void sscr_segmented_scan(variant v, const std::int32_t* x, const std::uint8_t* flags, std::int32_t* out,
                         std::int64_t n, void* temp, std::size_t& temp_bytes, cudaStream_t stream = nullptr,
                         long long* tile_cycles = nullptr);

void scd_segmented_sum(variant v, const float* x, const std::uint8_t* flags, float* sums,
                       std::int64_t* offsets, std::int64_t* num_segments, std::int64_t n, void* temp,
                       std::size_t& temp_bytes, cudaStream_t stream = nullptr, long long* tile_cycles = nullptr);
void scd_segmented_sum(variant v, const std::int32_t* x, const std::uint8_t* flags, std::int32_t* sums,
                       std::int64_t* offsets, std::int64_t* num_segments, std::int64_t n, void* temp,
                       std::size_t& temp_bytes, cudaStream_t stream = nullptr, long long* tile_cycles = nullptr);

}  // namespace mmv::gpu::ablation
