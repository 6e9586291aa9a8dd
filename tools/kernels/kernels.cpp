#include "mmvram/harness/random_inputs.hpp"
#include "kernels.hpp"

#include <sstream>
#include <stdexcept>

#include "mmvram/gpu/ablation.hpp"
#include "mmvram/gpu/api.hpp"
#include "mmvram/gpu/baselines/baselines.hpp"

namespace mmv::tool::kernels {

const char* op_name(op o) {
  switch (o) {
    case op::copy: return "copy";
    case op::reduce: return "reduce";
    case op::scan: return "scan";
    case op::segmented_scan: return "segmented_scan";
    case op::segmented_sum: return "segmented_sum";
  }
  return "?";
}

double bytes_per_item(op o) {
  switch (o) {
    case op::copy:
    case op::scan: return 8;
    case op::reduce: return 4;
    case op::segmented_scan: return 9;
    case op::segmented_sum: return 5;
  }
  return 0;
}

namespace {

namespace bl = mmv::gpu::baselines;
namespace ablation = mmv::gpu::ablation;
using i32 = std::int32_t;

// Calls f with (const T* x, T* out) typed by the input set's dtype.
template <class F>
void typed(const device_inputs& in, const device_outputs& o, F&& f) {
  if (in.type == dtype::f32) f(static_cast<const float*>(in.x), static_cast<float*>(o.out));
  else f(static_cast<const i32*>(in.x), static_cast<i32*>(o.out));
}

using run_fn = decltype(kernel_info::run);
enum needs : unsigned { none = 0, keys = 1, byte_keys = 2, offsets = 4, reports_offsets = 8 };

kernel_info make(std::string name, op kind, std::string family, double item_bytes, double segment_bytes,
                 unsigned need, run_fn run) {
  kernel_info k;
  k.name = std::move(name);
  k.kind = kind;
  k.family = std::move(family);
  k.needs_keys = need & keys;
  k.needs_byte_keys = need & byte_keys;
  k.needs_offsets = need & offsets;
  k.reports_offsets = need & reports_offsets;
  k.item_bytes = item_bytes;
  k.segment_bytes = segment_bytes;
  k.run = std::move(run);
  return k;
}

// mmvram's fused kernel of kind `kind` as variant v (ablation.hpp); the V0 entries ("ours") run
// through api.hpp, the same kernels without the cycle probe.
kernel_info fused(std::string name, op kind, ablation::variant v) {
  using in_t = const device_inputs&;
  using out_t = const device_outputs&;
  const bool ours = v == ablation::variant::cuda_cores;
  const unsigned need = kind == op::segmented_sum ? reports_offsets : none;
  // Bytes: scan 4 + 4; segmented scan 4 + 1 + 4; segmented sum 4 + 1 per item, and per segment
  // its sum (4) and offset (8) written.
  const double item_bytes = bytes_per_item(kind), segment_bytes = kind == op::segmented_sum ? 12 : 0;
  kernel_info k = make(std::move(name), kind, ours ? "ours" : "ablation", item_bytes, segment_bytes, need, nullptr);
  k.variant = ablation::variant_name(v);
  if (v == ablation::variant::tensor_core_warp && kind != op::scan) {
    k.speculation_block = ablation::kWarpBlockItems;
    k.claims_fp32_accuracy = false;
  }
  const auto tk = kind == op::scan             ? mmv::gpu::tuning::kernel::matmul_scan
                  : kind == op::segmented_scan ? mmv::gpu::tuning::kernel::sscr_segmented_scan
                                               : mmv::gpu::tuning::kernel::scd_segmented_sum;
  k.tile_items = [tk, v] { return ablation::tile_items(tk, v); };
  k.run_timed = [kind, v](in_t in, out_t o, void* temp, std::size_t& bytes, cudaStream_t s, long long* cycles) {
    typed(in, o, [&](auto x, auto out) {
      if (kind == op::scan) ablation::matmul_scan(v, x, out, in.n, temp, bytes, s, cycles);
      else if (kind == op::segmented_scan) ablation::sscr_segmented_scan(v, x, in.flags, out, in.n, temp, bytes, s, cycles);
      else ablation::scd_segmented_sum(v, x, in.flags, out, o.offsets, o.num_segments, in.n, temp, bytes, s, cycles);
    });
  };
  if (!ours) {
    k.run = [t = k.run_timed](in_t in, out_t o, void* temp, std::size_t& bytes, cudaStream_t s) { t(in, o, temp, bytes, s, nullptr); };
    return k;
  }
  k.run = [kind](in_t in, out_t o, void* temp, std::size_t& bytes, cudaStream_t s) {
    typed(in, o, [&](auto x, auto out) {
      if (kind == op::scan) mmv::gpu::matmul_scan(x, out, in.n, temp, bytes, s);
      else if (kind == op::segmented_scan) mmv::gpu::sscr_segmented_scan(x, in.flags, out, in.n, temp, bytes, s);
      else mmv::gpu::scd_segmented_sum(x, in.flags, out, o.offsets, o.num_segments, in.n, temp, bytes, s);
    });
  };
  return k;
}

std::vector<kernel_info> make_registry() {
  using V = ablation::variant;
  using in_t = const device_inputs&;
  using out_t = const device_outputs&;
  std::vector<kernel_info> k;
  k.push_back(make("copy", op::copy, "copy", 8, 0, none, [](in_t in, out_t o, void* temp, std::size_t& bytes, cudaStream_t s) {
    if (temp == nullptr) { bytes = 0; return; }
    bl::device_copy(in.x, o.out, static_cast<std::size_t>(in.n) * 4, s);
  }));
  k.push_back(make("read_only_reduce", op::reduce, "copy", 4, 0, none, [](in_t in, out_t o, void* temp, std::size_t& bytes, cudaStream_t s) {
    typed(in, o, [&](auto x, auto out) { bl::cub_reduce_sum(x, out, in.n, temp, bytes, s); });
  }));
  k.push_back(fused("matmul_scan", op::scan, V::cuda_cores));
  k.push_back(fused("matmul_scan_tc", op::scan, V::tensor_cores));
  k.push_back(fused("matmul_scan_tc_warp", op::scan, V::tensor_core_warp));
  k.push_back(make("cub_inclusive_sum", op::scan, "cub", 8, 0, none, [](in_t in, out_t o, void* temp, std::size_t& bytes, cudaStream_t s) {
    typed(in, o, [&](auto x, auto out) { bl::cub_inclusive_sum(x, out, in.n, temp, bytes, s); });
  }));
  k.push_back(fused("sscr_segmented_scan", op::segmented_scan, V::cuda_cores));
  k.push_back(fused("sscr_segmented_scan_tc", op::segmented_scan, V::tensor_cores));
  k.push_back(fused("sscr_segmented_scan_tc_rows", op::segmented_scan, V::tensor_core_rows));
  k.push_back(fused("sscr_segmented_scan_tc_warp", op::segmented_scan, V::tensor_core_warp));
  k.push_back(make("vcu_flag_transform_scan", op::segmented_scan, "vcu", 9, 0, none, [](in_t in, out_t o, void* temp, std::size_t& bytes, cudaStream_t s) {
    typed(in, o, [&](auto x, auto out) { bl::vcu_flag_transform_scan(x, in.flags, out, in.n, temp, bytes, s); });
  }));
  k.push_back(make("vcu_min_index_scan", op::segmented_scan, "vcu", 9, 0, none, [](in_t in, out_t o, void* temp, std::size_t& bytes, cudaStream_t s) {
    typed(in, o, [&](auto x, auto out) { bl::vcu_min_index_scan(x, in.flags, out, in.n, temp, bytes, s); });
  }));
  k.push_back(make("cub_inclusive_sum_by_key", op::segmented_scan, "cub", 12, 0, keys, [](in_t in, out_t o, void* temp, std::size_t& bytes, cudaStream_t s) {
    typed(in, o, [&](auto x, auto out) { bl::cub_inclusive_sum_by_key(in.keys, x, out, in.n, temp, bytes, s); });
  }));
  k.push_back(make("cub_inclusive_sum_by_key_u8", op::segmented_scan, "cub", 9, 0, byte_keys, [](in_t in, out_t o, void* temp, std::size_t& bytes, cudaStream_t s) {
    typed(in, o, [&](auto x, auto out) { bl::cub_inclusive_sum_by_key(in.byte_keys, x, out, in.n, temp, bytes, s); });
  }));
  k.push_back(make("cub_flag_pair_scan", op::segmented_scan, "cub", 9, 0, none, [](in_t in, out_t o, void* temp, std::size_t& bytes, cudaStream_t s) {
    typed(in, o, [&](auto x, auto out) { bl::cub_flag_pair_scan(x, in.flags, out, in.n, temp, bytes, s); });
  }));
  // Begin and end offsets are one array read at k and k + 1: 8 bytes per segment.
  k.push_back(make("cccl_segmented_scan", op::segmented_scan, "cccl", 8, 8, offsets, [](in_t in, out_t o, void* temp, std::size_t& bytes, cudaStream_t s) {
    typed(in, o, [&](auto x, auto out) { bl::cccl_inclusive_segmented_sum(x, in.offsets, in.num_segments, out, temp, bytes, s); });
  }));
  if (!bl::cccl_segmented_scan_available())
    k.back().unavailable = "not built: no CCCL headers with cub::DeviceSegmentedScan were found (pip install nvidia-cuda-cccl, configure again)";
  k.push_back(fused("scd_segmented_sum", op::segmented_sum, V::cuda_cores));
  k.push_back(fused("scd_segmented_sum_tc", op::segmented_sum, V::tensor_cores));
  k.push_back(fused("scd_segmented_sum_tc_rows", op::segmented_sum, V::tensor_core_rows));
  k.push_back(fused("scd_segmented_sum_tc_warp", op::segmented_sum, V::tensor_core_warp));
  // Offsets read (8) and sums written (4) per segment.
  k.push_back(make("cub_segmented_reduce_sum", op::segmented_sum, "cub", 4, 12, offsets, [](in_t in, out_t o, void* temp, std::size_t& bytes, cudaStream_t s) {
    typed(in, o, [&](auto x, auto out) { bl::cub_segmented_reduce_sum(x, in.offsets, in.num_segments, out, temp, bytes, s); });
  }));
  return k;
}

}  // namespace

const std::vector<kernel_info>& all_kernels() {
  static const std::vector<kernel_info> registry = make_registry();
  return registry;
}

std::vector<const kernel_info*> select_kernels(const std::string& spec, std::string& error) {
  std::vector<const kernel_info*> out;
  std::stringstream ss(spec);
  std::string item;
  while (std::getline(ss, item, ',')) {
    bool found = false;
    for (const kernel_info& k : all_kernels()) {
      const bool match = item == "all" || item == k.name || (item == "ours" && k.family == "ours") ||
                         (item == "ablation" && k.family == "ablation") ||
                         (item == "baselines" && k.family != "ours" && k.family != "ablation");
      if (!match) continue;
      found = true;
      bool dup = false;
      for (auto* p : out) dup = dup || p == &k;
      if (!dup) out.push_back(&k);
    }
    if (!found) {
      error = "unknown kernel '" + item + "' (all, ours, ablation, baselines, or one of:";
      for (const kernel_info& k : all_kernels()) error += " " + k.name;
      error += ")";
      return {};
    }
  }
  if (out.empty()) error = "no kernels selected";
  return out;
}

std::vector<const kernel_info*> require_kernels(const std::string& spec) {
  std::string err;
  auto ks = select_kernels(spec, err);
  if (ks.empty()) throw std::invalid_argument(err);
  return ks;
}

std::vector<std::string> reference_kernels(op o) {
  switch (o) {
    case op::copy:
    case op::reduce: return {};
    case op::scan: return {"matmul_scan_tc", "matmul_scan_tc_warp", "cub_inclusive_sum"};
    case op::segmented_scan:
      return {"sscr_segmented_scan_tc", "sscr_segmented_scan_tc_rows", "sscr_segmented_scan_tc_warp", "cub_inclusive_sum_by_key", "cub_inclusive_sum_by_key_u8",
              "cub_flag_pair_scan", "cccl_segmented_scan", "vcu_flag_transform_scan", "vcu_min_index_scan"};
    case op::segmented_sum:
      return {"scd_segmented_sum_tc", "scd_segmented_sum_tc_rows", "scd_segmented_sum_tc_warp", "cub_segmented_reduce_sum"};
  }
  return {};
}

}  // namespace mmv::tool::kernels
