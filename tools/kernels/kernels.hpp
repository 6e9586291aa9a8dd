// The registry of everything check and bench run: mmvram's kernels (api.hpp) and the baselines
// (baselines.hpp), each behind one uniform call on a prepared device input set.
#pragma once
#include "mmvram/harness/random_inputs.hpp"
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "kernel_inputs.hpp"
#include "mmvram/gpu/ablation.hpp"

namespace mmv::tool::kernels {

enum class op { copy, reduce, scan, segmented_scan, segmented_sum };
// The operation's name as the JSON files and the printed tables write it ("copy", "reduce",
// "scan", "segmented_scan", "segmented_sum"; "?" for a value outside the enum); a static
// string, never null.
const char* op_name(op o);
// The byte floor of an operation, per item: what any kernel must read and write
// (docs/gpu_targets.md): copy and scan 8 (4 read + 4 written), reduce 4, segmented scan 9
// (4 + 1 flag + 4), segmented sum 5 (read only; the sums are per segment).
double bytes_per_item(op o);

// One input set on the device. keys / offsets are prepared only for kernels that need them.
struct device_inputs {
  inputs::dtype type = inputs::dtype::f32;
  std::int64_t n = 0;
  const void* x = nullptr;
  const std::uint8_t* flags = nullptr;
  const std::int32_t* keys = nullptr;       // segment ids (make_segment_keys)
  const std::uint8_t* byte_keys = nullptr;  // segment ids mod 256 (make_segment_keys)
  const std::int64_t* offsets = nullptr;    // segment starts + n (make_segment_offsets)
  std::int64_t num_segments = 0;            // host copy of the segment count
};
// Where results go: out has room for n values; offsets (n + 1) and num_segments only for
// kernels that report them (scd_segmented_sum).
struct device_outputs {
  void* out = nullptr;
  std::int64_t* offsets = nullptr;
  std::int64_t* num_segments = nullptr;
};

struct kernel_info {
  std::string name;
  op kind;
  std::string family;  // "ours" (api.hpp), "ablation" (ablation.hpp: tensor-core variants), "cub", "cccl", "vcu", "copy"
  std::string variant;  // ours and ablation: ablation.hpp's variant_name (v0_cuda_cores, ...)
  bool needs_keys = false, needs_byte_keys = false, needs_offsets = false, reports_offsets = false;
  // The device traffic of one call as this kernel does it: bytes per item (e.g. ScanByKey's
  // int32 keys) plus bytes per segment (offsets read, sums and offsets written).
  double item_bytes = 0, segment_bytes = 0;
  // fp32 only: REVERT subtracts speculative sums over aligned blocks of this many items (V3:
  // 512), so check allows a result of two items or more V3's derived bound, kRevertCoefficient
  // (mmvram/harness/tolerance.hpp) times the sum of |x| over its start's block before the start (0: none).
  std::int64_t speculation_block = 0;
  // false: the kernel's fp32 results carry a documented inaccuracy (V3's REVERT by subtraction,
  // docs/gpu_v3_error.md); check still applies the fp32 rule and reports FAIL, but such failures
  // are findings, not counted in its exit status. Its int32 results must still be exact.
  bool claims_fp32_accuracy = true;
  // Non-empty when the kernel is not in this build: why (check and bench skip it and say so).
  std::string unavailable;
  // CUB temp convention: temp == nullptr sets temp_bytes only.
  std::function<void(const device_inputs&, const device_outputs&, void*, std::size_t&, cudaStream_t)> run;
  // ours and ablation only (else empty): run, with the per-tile clock64 cycles written to
  // tile_cycles (device, ceil(n / tile_items()) entries: ablation::tiles).
  std::function<void(const device_inputs&, const device_outputs&, void*, std::size_t&, cudaStream_t, long long*)>
      run_timed;
  // ours and ablation only (else empty): items per tile on the current device, as the tile
  // policy tuned for it says (ablation::tile_items; throws cuda_error as it does).
  std::function<std::int64_t()> tile_items;
  // Where V3's speculation blocks start for these device pointers: at i + phase a multiple of
  // speculation_block (the tile grid's shift, ablation::tile_shift); 0 without speculation blocks.
  std::int64_t speculation_phase(const void* x, const std::uint8_t* flags, const void* out) const {
    if (speculation_block == 0) return 0;
    return mmv::gpu::ablation::tile_shift(x, kind == op::scan ? nullptr : flags, kind == op::segmented_sum ? nullptr : out);
  }
  double bytes(std::int64_t n, std::int64_t segments) const {
    return item_bytes * double(n) + segment_bytes * double(segments);
  }
};

// Every kernel `mmvram kernels` knows, built once (thread-safe) and never changed: names are
// unique, in the order the tables print them; the pointers into it (select_kernels,
// fused_kernels_of) stay valid for the whole process. A kernel that was not built is listed with
// `unavailable` saying why.
const std::vector<kernel_info>& all_kernels();
// spec: "all", "ours", "ablation" (the tensor-core variants), "baselines" (neither), or comma-separated
// kernel names; empty result and a message in `error` when a name is unknown.
std::vector<const kernel_info*> select_kernels(const std::string& spec, std::string& error);
// select_kernels, throwing std::invalid_argument with its message when nothing is selected.
std::vector<const kernel_info*> require_kernels(const std::string& spec);
// Baselines that a kernel of kind o is compared with in bench (speedup_vs); the copy is
// compared separately.
std::vector<std::string> reference_kernels(op o);

}  // namespace mmv::tool::kernels
