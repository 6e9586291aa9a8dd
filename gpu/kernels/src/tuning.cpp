// The tuning table of the fused kernels and its run-time lookup (include/mmvram/gpu/tuning.hpp).
#include "mmvram/gpu/tuning.hpp"

#include "mmvram/gpu/ablation.hpp"

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdlib>
#include <map>
#include <mutex>

#include "mmvram/gpu/runtime/error.hpp"

namespace mmv::gpu::tuning {
namespace {

struct entry {
  const char* name;
  int cc_major, cc_minor;
  std::array<int, 3> choice;  // candidate index per kernel, in kKernels' order
};

// One row per tuned device, each the `choice` of its stored sweep (mmvram kernels tune, n = 2^28,
// f32 and i32, the candidate with the least geometric mean time over its rows where that is at
// least 1% faster than candidate 0's: tools/kernels/tune.hpp); docs/kernels.md ("Per-device
// tuning") has the numbers.
constexpr entry kTable[] = {
    // experiments/results/gpu_tuning_H100.json (SCD on 3-pass tiles at 3 blocks per SM: 1.4% faster)
    {"NVIDIA H100 80GB HBM3", 9, 0, {0, 0, 2}},
    // experiments/results/gpu_tuning_H200.json (SSCR and SCD on 3-pass tiles at 3 blocks per SM:
    // 2.3% and 3.9% faster)
    {"NVIDIA H200", 9, 0, {0, 2, 2}},
};

int index_of(kernel k) { return k == kernel::matmul_scan ? 0 : k == kernel::sscr_segmented_scan ? 1 : 2; }

std::array<std::atomic<int>, 3> forced{-1, -1, -1};

// MMVRAM_TUNING_CANDIDATE: -1 when unset.
int from_environment() {
  const char* v = std::getenv("MMVRAM_TUNING_CANDIDATE");
  if (v == nullptr || *v == '\0') return -1;
  char* end = nullptr;
  const long i = std::strtol(v, &end, 10);
  if (*end != '\0' || i < 0 || i >= kCandidates)
    throw cuda_error("mmvram gpu: MMVRAM_TUNING_CANDIDATE must be an index 0.." + std::to_string(kCandidates - 1) +
                     " (got '" + v + "')");
  return int(i);
}

}  // namespace

const char* kernel_name(kernel k) {
  switch (k) {
    case kernel::matmul_scan: return "matmul_scan";
    case kernel::sscr_segmented_scan: return "sscr_segmented_scan";
    case kernel::scd_segmented_sum: return "scd_segmented_sum";
  }
  return "?";
}

int choose(kernel k, const device_key& d) {
  for (const entry& e : kTable)
    if (d.name == e.name && d.cc_major == e.cc_major && d.cc_minor == e.cc_minor) return e.choice[index_of(k)];
  return 0;
}

int current(kernel k) {
  if (const int f = forced[index_of(k)].load(std::memory_order_relaxed); f >= 0) return f;
  static const int env = from_environment();
  if (env >= 0) return env;
  static std::mutex m;
  static std::map<int, std::array<int, 3>> by_ordinal;
  int ordinal = 0;
  runtime::check(cudaGetDevice(&ordinal), "cudaGetDevice");
  const std::lock_guard<std::mutex> lock(m);
  auto it = by_ordinal.find(ordinal);
  if (it == by_ordinal.end()) {
    cudaDeviceProp p{};
    runtime::check(cudaGetDeviceProperties(&p, ordinal), "cudaGetDeviceProperties");
    const device_key d{p.name, p.major, p.minor};
    std::array<int, 3> choice{};
    for (kernel each : kKernels) choice[index_of(each)] = choose(each, d);
    it = by_ordinal.emplace(ordinal, choice).first;
  }
  return it->second[index_of(k)];
}

void force(kernel k, int i) {
  if (i < -1 || i >= kCandidates) throw cuda_error("mmvram gpu: tuning::force needs -1.." + std::to_string(kCandidates - 1));
  forced[index_of(k)].store(i, std::memory_order_relaxed);
}

}  // namespace mmv::gpu::tuning

namespace mmv::gpu::ablation {

std::int64_t tile_items(tuning::kernel k, variant v) {
  return tuning::candidates(k)[v == variant::cuda_cores ? tuning::current(k) : 0].tile_items();
}

}  // namespace mmv::gpu::ablation
