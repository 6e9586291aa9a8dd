#include "kernels.hpp"

#include <sstream>

#include "mmvram/gpu/api.hpp"
#include "mmvram/gpu/baselines/baselines.hpp"

namespace mmv::gpu::harness {

const char* op_name(op o) {
  switch (o) {
    case op::copy: return "copy";
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
    case op::segmented_scan: return 9;
    case op::segmented_sum: return 5;
  }
  return 0;
}

namespace {

namespace bl = mmv::gpu::baselines;
using i32 = std::int32_t;

// Calls f with (const T* x, T* out) typed by the input set's dtype.
template <class F>
void typed(const device_inputs& in, const device_outputs& o, F&& f) {
  if (in.type == dtype::f32) f(static_cast<const float*>(in.x), static_cast<float*>(o.out));
  else f(static_cast<const i32*>(in.x), static_cast<i32*>(o.out));
}

std::vector<kernel_info> make_registry() {
  std::vector<kernel_info> k;
  k.push_back({"copy", op::copy, "copy", false, false, false,
               [](const device_inputs& in, const device_outputs& o, void* temp, std::size_t& bytes, cudaStream_t s) {
                 if (temp == nullptr) { bytes = 0; return; }
                 bl::device_copy(in.x, o.out, static_cast<std::size_t>(in.n) * 4, s);
               }});
  k.push_back({"matmul_scan", op::scan, "ours", false, false, false,
               [](const device_inputs& in, const device_outputs& o, void* temp, std::size_t& bytes, cudaStream_t s) {
                 typed(in, o, [&](auto x, auto out) { mmv::gpu::matmul_scan(x, out, in.n, temp, bytes, s); });
               }});
  k.push_back({"cub_inclusive_sum", op::scan, "cub", false, false, false,
               [](const device_inputs& in, const device_outputs& o, void* temp, std::size_t& bytes, cudaStream_t s) {
                 typed(in, o, [&](auto x, auto out) { bl::cub_inclusive_sum(x, out, in.n, temp, bytes, s); });
               }});
  k.push_back({"sscr_segmented_scan", op::segmented_scan, "ours", false, false, false,
               [](const device_inputs& in, const device_outputs& o, void* temp, std::size_t& bytes, cudaStream_t s) {
                 typed(in, o, [&](auto x, auto out) {
                   mmv::gpu::sscr_segmented_scan(x, in.flags, out, in.n, temp, bytes, s);
                 });
               }});
  k.push_back({"vcu_flag_transform_scan", op::segmented_scan, "vcu", false, false, false,
               [](const device_inputs& in, const device_outputs& o, void* temp, std::size_t& bytes, cudaStream_t s) {
                 typed(in, o, [&](auto x, auto out) { bl::vcu_flag_transform_scan(x, in.flags, out, in.n, temp, bytes, s); });
               }});
  k.push_back({"vcu_min_index_scan", op::segmented_scan, "vcu", false, false, false,
               [](const device_inputs& in, const device_outputs& o, void* temp, std::size_t& bytes, cudaStream_t s) {
                 typed(in, o, [&](auto x, auto out) { bl::vcu_min_index_scan(x, in.flags, out, in.n, temp, bytes, s); });
               }});
  k.push_back({"cub_inclusive_sum_by_key", op::segmented_scan, "cub", true, false, false,
               [](const device_inputs& in, const device_outputs& o, void* temp, std::size_t& bytes, cudaStream_t s) {
                 typed(in, o, [&](auto x, auto out) { bl::cub_inclusive_sum_by_key(in.keys, x, out, in.n, temp, bytes, s); });
               }});
  k.push_back({"cub_flag_pair_scan", op::segmented_scan, "cub", false, false, false,
               [](const device_inputs& in, const device_outputs& o, void* temp, std::size_t& bytes, cudaStream_t s) {
                 typed(in, o, [&](auto x, auto out) { bl::cub_flag_pair_scan(x, in.flags, out, in.n, temp, bytes, s); });
               }});
  k.push_back({"scd_segmented_sum", op::segmented_sum, "ours", false, false, true,
               [](const device_inputs& in, const device_outputs& o, void* temp, std::size_t& bytes, cudaStream_t s) {
                 typed(in, o, [&](auto x, auto out) {
                   mmv::gpu::scd_segmented_sum(x, in.flags, out, o.offsets, o.num_segments, in.n, temp, bytes, s);
                 });
               }});
  k.push_back({"cub_segmented_reduce_sum", op::segmented_sum, "cub", false, true, false,
               [](const device_inputs& in, const device_outputs& o, void* temp, std::size_t& bytes, cudaStream_t s) {
                 typed(in, o, [&](auto x, auto out) {
                   bl::cub_segmented_reduce_sum(x, in.offsets, in.num_segments, out, temp, bytes, s);
                 });
               }});
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
                         (item == "baselines" && k.family != "ours");
      if (!match) continue;
      found = true;
      bool dup = false;
      for (auto* p : out) dup = dup || p == &k;
      if (!dup) out.push_back(&k);
    }
    if (!found) {
      error = "unknown kernel '" + item + "' (all, ours, baselines, or one of:";
      for (const kernel_info& k : all_kernels()) error += " " + k.name;
      error += ")";
      return {};
    }
  }
  if (out.empty()) error = "no kernels selected";
  return out;
}

std::vector<std::string> reference_kernels(op o) {
  switch (o) {
    case op::copy: return {};
    case op::scan: return {"cub_inclusive_sum"};
    case op::segmented_scan:
      return {"cub_inclusive_sum_by_key", "cub_flag_pair_scan", "vcu_flag_transform_scan",
              "vcu_min_index_scan"};
    case op::segmented_sum: return {"cub_segmented_reduce_sum"};
  }
  return {};
}

}  // namespace mmv::gpu::harness
