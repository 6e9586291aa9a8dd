// mmvram kernels bench, its report: the table and the JSON file of the measured rows
// (bench_report.hpp).
#include "bench_report.hpp"

#include <cstdio>

#include "json_file.hpp"

namespace mmv::tool::kernels {
namespace {

// The row of kernel on type t and distribution dist that ran without error; nullptr if none.
const bench_row* find_row(const std::vector<bench_row>& rows, const std::string& kernel, dtype t, const std::string& dist) {
  for (const auto& r : rows)
    if (r.k->name == kernel && r.type == t && r.dist == dist && r.error.empty()) return &r;
  return nullptr;
}

// One row of the bench JSON: the kernel, its input and, unless it failed, its timings and
// ratios (null where the copy or the read-only ceiling was not measured).
json row_json(const bench_row& r, const std::vector<bench_row>& rows, int reps) {
  json j;
  j["kernel"] = r.k->name, j["family"] = r.k->family, j["operation"] = op_name(r.k->kind);
  if (!r.k->variant.empty()) j["variant"] = r.k->variant;
  j["dtype"] = dtype_name(r.type), j["n"] = r.n, j["distribution"] = r.dist;
  j["distribution_family"] = r.dist_family;
  j["mean_segment_length"] = r.mean > 0 ? json(r.mean) : json(nullptr);
  j["num_segments"] = r.segments, j["segment_density"] = double(r.segments) / double(r.n);
  j["bytes_per_item"] = bytes_per_item(r.k->kind);
  j["kernel_bytes_per_item"] = r.k->item_bytes, j["kernel_bytes_per_segment"] = r.k->segment_bytes;
  j["reps"] = reps;
  if (r.k->tile_items) j["tile_items"] = r.k->tile_items();  // the tile policy this device ran
  if (!r.error.empty()) {
    j["error"] = r.error;
    return j;
  }
  j["time_ms"] = r.median_ms, j["time_ms_min"] = r.min_ms, j["time_ms_max"] = r.max_ms;
  j["throughput_gitems_per_s"] = r.gitems(), j["bandwidth_gb_per_s"] = r.gbs();
  if (std::isfinite(r.prep_median_ms)) {
    j["time_with_preparation_ms"] = r.prep_median_ms;
    j["time_with_preparation_ms_min"] = r.prep_min_ms, j["time_with_preparation_ms_max"] = r.prep_max_ms;
  }
  if (r.tiles > 0) {
    j["tiles"] = r.tiles, j["tile_cycles_median"] = r.tile_cycles_median;
    j["tile_cycles_min"] = r.tile_cycles_min, j["tile_cycles_p90"] = r.tile_cycles_p90;
  }
  const bench_row* copy = find_row(rows, "copy", r.type, "none");
  j["copy_bandwidth_fraction"] = copy ? json(r.gbs() / copy->gbs()) : json(nullptr);
  // The operation's byte floor moved at the read-only ceiling's bandwidth, over this time.
  const bench_row* read = find_row(rows, "read_only_reduce", r.type, "none");
  j["floor_fraction_of_read_only"] = read ? json(r.floor_gbs() / read->gbs()) : json(nullptr);
  json speedup = json::object(), prepared = json::object();
  for (const auto& ref : reference_kernels(r.k->kind)) {
    const bench_row* b = ref == r.k->name ? nullptr : find_row(rows, ref, r.type, r.dist);
    if (b != nullptr) speedup[ref] = b->median_ms / r.median_ms;
    if (b != nullptr && std::isfinite(b->prep_median_ms)) prepared[ref] = b->prep_median_ms / r.median_ms;
  }
  j["speedup_vs"] = std::move(speedup);
  j["speedup_vs_with_preparation"] = std::move(prepared);  // rivals timed with their keys/offsets built
  return j;
}

}  // namespace

int print_bench_table(std::ostream& os, const std::vector<bench_row>& rows) {
  char buf[512];
  std::snprintf(buf, sizeof buf, "\n%-27s %-4s %-16s %9s %9s %8s %6s %6s  %s\n", "kernel", "type", "distribution",
                "time_ms", "Gitem/s", "GB/s", "%copy", "%read", "speedup vs baselines");
  os << buf;
  int failures = 0;
  for (const auto& r : rows) {
    if (!r.error.empty()) {
      ++failures;
      std::snprintf(buf, sizeof buf, "%-27s %-4s %-16s  ERROR: %s\n", r.k->name.c_str(), dtype_name(r.type),
                    r.dist.c_str(), r.error.c_str());
      os << buf;
      continue;
    }
    const bench_row* copy = find_row(rows, "copy", r.type, "none");
    const bench_row* read = find_row(rows, "read_only_reduce", r.type, "none");
    std::string sp;
    for (const auto& ref : reference_kernels(r.k->kind)) {
      const bench_row* b = ref == r.k->name ? nullptr : find_row(rows, ref, r.type, r.dist);
      if (b == nullptr) continue;
      char s[96];
      std::snprintf(s, sizeof s, " %s %.2fx", ref.c_str(), b->median_ms / r.median_ms);
      sp += s;
      if (std::isfinite(b->prep_median_ms)) {
        std::snprintf(s, sizeof s, " (%.2fx with its preparation)", b->prep_median_ms / r.median_ms);
        sp += s;
      }
    }
    std::snprintf(buf, sizeof buf, "%-27s %-4s %-16s %9.3f %9.1f %8.0f %5.0f%% %5.0f%% %s\n", r.k->name.c_str(),
                  dtype_name(r.type), r.dist.c_str(), r.median_ms, r.gitems(), r.gbs(),
                  copy ? 100.0 * r.gbs() / copy->gbs() : NAN, read ? 100.0 * r.floor_gbs() / read->gbs() : NAN,
                  sp.c_str());
    os << buf;
  }
  return failures;
}

void write_bench_json(const bench_options& o, const runtime::device_info& dev, int sets, double set_bytes,
                      const std::vector<bench_row>& rows) {
  json j;
  j["schema"] = "mmvram-gpu-bench/1";
  j["date_utc"] = utc_now();
  j["gpu"] = {{"name", dev.name},
              {"sm_count", dev.sm_count},
              {"compute_capability", std::to_string(dev.cc_major) + "." + std::to_string(dev.cc_minor)},
              {"l2_bytes", static_cast<std::uint64_t>(dev.l2_bytes)},
              {"memory_bytes", static_cast<std::uint64_t>(dev.memory_bytes)},
              {"sm_clock_khz", dev.sm_clock_khz}};
  j["cuda_runtime_version"] = runtime::cuda_version_string(dev.runtime_version);
  j["cuda_driver_version"] = runtime::cuda_version_string(dev.driver_version);
  j["n"] = o.n, j["reps"] = o.reps, j["warmup"] = o.warmup, j["input_sets"] = sets;
  j["working_set_bytes"] = static_cast<std::uint64_t>(set_bytes * sets);
  j["seed"] = o.seed, j["pointer_offset_items"] = o.offset;
  j["timing"] = "CUDA events around each call; median over reps, input sets rotated per call; rivals that take "
                "keys or offsets timed again with them built from the flags inside the events "
                "(time_with_preparation_ms)";
  json out_rows = json::array();
  for (const auto& r : rows) out_rows.push_back(row_json(r, rows, o.reps));
  j["rows"] = std::move(out_rows);
  write_json_file(o.out_path, j);
}

}  // namespace mmv::tool::kernels
