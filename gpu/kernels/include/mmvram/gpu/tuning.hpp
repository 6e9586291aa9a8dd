// Per-device tuning of the fused kernels (api.hpp; ablation.hpp's V0): each kernel has a few
// tile policies compiled in (candidates below, index 0 the default); which one a call runs is
// looked up from the current device by name and compute capability (the table in
// src/tuning.cpp, each entry chosen by a stored `mmvram kernels tune` sweep), once per device
// ordinal. Devices not in the table run candidate 0; the tensor-core variants V1-V3 always do.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace mmv::gpu::tuning {

enum class kernel { matmul_scan, sscr_segmented_scan, scd_segmented_sum };
inline constexpr std::array<kernel, 3> kKernels{kernel::matmul_scan, kernel::sscr_segmented_scan,
                                                kernel::scd_segmented_sum};
// "matmul_scan", "sscr_segmented_scan", "scd_segmented_sum" (the api.hpp names).
const char* kernel_name(kernel k);

// A tile policy (tile/policy.cuh's tile_policy<Passes, Stages, MinBlocks> as values): a tile is
// `passes` passes of 4096 items in `stages` shared-memory stages; min_blocks is the blocks per SM
// asked of the compiler (it caps the registers).
struct policy {
  int passes, stages, min_blocks;
  constexpr std::int64_t tile_items() const { return std::int64_t{passes} * 4096; }
};

inline constexpr int kCandidates = 3;
using candidate_list = std::array<policy, kCandidates>;

// The candidates of kernel k (compiled in for V0); [0] is the policy untuned devices run. The
// segmented kernels fit 2 blocks of 4-pass tiles per SM in shared memory, 3 of 3-pass tiles and
// (SCD's V0, whose stage holds no partial results) 4 of 2-pass tiles.
inline constexpr candidate_list kScanCandidates{{{4, 1, 3}, {3, 1, 3}, {3, 1, 4}}};
inline constexpr candidate_list kSegmentedCandidates{{{4, 1, 2}, {3, 1, 2}, {3, 1, 3}}};
inline constexpr candidate_list kScdCandidates{{{4, 1, 2}, {2, 1, 4}, {3, 1, 3}}};
constexpr const candidate_list& candidates(kernel k) {
  return k == kernel::matmul_scan ? kScanCandidates
         : k == kernel::sscr_segmented_scan ? kSegmentedCandidates
                                             : kScdCandidates;
}

// What the table keys on (cudaDeviceProp's name and major.minor).
struct device_key {
  std::string name;
  int cc_major = 0, cc_minor = 0;
};

// The table: the candidate index for kernel k on device d, 0 when d is not in it. No CUDA call.
int choose(kernel k, const device_key& d);

// The candidate index calls of kernel k on the current device run now: the one set by force(),
// else the environment variable MMVRAM_TUNING_CANDIDATE (0..kCandidates-1, every kernel; read
// at the first call), else choose() for the current device, looked up once per device ordinal
// (thread-safe). Throws cuda_error when the device query fails or the variable is not an index.
int current(kernel k);

// Makes current(k) return i (0..kCandidates-1) in this process, or (i = -1) the variable's or
// the table's choice again: how tests and `mmvram kernels tune` run every candidate. Takes
// effect for later calls; not for use while other threads call kernel k.
void force(kernel k, int i);

}  // namespace mmv::gpu::tuning
