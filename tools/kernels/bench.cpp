#include "mmvram/harness/random_inputs.hpp"
#include "bench.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <map>
#include <memory>

#include "mmvram/gpu/runtime/buffer.hpp"
#include "mmvram/gpu/runtime/device.hpp"
#include "mmvram/gpu/runtime/stream.hpp"
#include "json_file.hpp"
#include "kernels.hpp"
#include "mmvram/gpu/ablation.hpp"
#include "mmvram/gpu/baselines/baselines.hpp"

namespace mmv::tool::kernels {

using inputs::count_segments;
using inputs::distribution;
using inputs::dtype;
using inputs::dtype_name;
using inputs::fill_flags;
using inputs::fill_values;
using inputs::mix64;
using inputs::standard_distributions;
namespace {

struct row {
  const kernel_info* k = nullptr;
  dtype type = dtype::f32;
  std::int64_t n = 0;
  std::string dist = "none", dist_family = "none";
  std::int64_t mean = 0, segments = 1;
  double median_ms = NAN, min_ms = NAN, max_ms = NAN;
  std::int64_t tiles = 0;  // with --tile-cycles: per-tile clock64 cycles over all tiles and reps
  double tile_cycles_median = NAN, tile_cycles_min = NAN, tile_cycles_p90 = NAN;
  std::string error;
  double gitems() const { return double(n) / (median_ms * 1e-3) / 1e9; }
  // Bandwidth of the bytes this kernel moves, and of the operation's byte floor.
  double gbs() const { return k->bytes(n, segments) / (median_ms * 1e-3) / 1e9; }
  double floor_gbs() const { return bytes_per_item(k->kind) * double(n) / (median_ms * 1e-3) / 1e9; }
};

// Times k over the input sets (warm-up, then reps calls rotating sets, events around each).
// With tile_cycles, then reps more calls with the clock64 probe (fused kernels only).
void time_kernel(row& r, const kernel_info& k, const std::vector<device_inputs>& ins,
                 const device_outputs& o, int warmup, int reps, bool tile_cycles) {
  try {
    std::size_t tb = 0, most = 1;
    for (const auto& in : ins) {
      k.run(in, o, nullptr, tb, nullptr);
      most = std::max(most, tb);
    }
    runtime::device_buffer temp(most);
    for (int w = 0; w < warmup; ++w) {
      tb = most;
      k.run(ins[static_cast<std::size_t>(w) % ins.size()], o, temp.get(), tb, nullptr);
    }
    runtime::check(cudaDeviceSynchronize(), k.name + " warm-up");
    // One owning pair of events per call (destroyed on every path), all recorded before the one wait.
    const auto timers = std::make_unique<runtime::event_timer[]>(static_cast<std::size_t>(reps));
    for (int i = 0; i < reps; ++i) {
      tb = most;
      timers[i].start(nullptr);
      k.run(ins[static_cast<std::size_t>(i) % ins.size()], o, temp.get(), tb, nullptr);
      timers[i].stop(nullptr);
    }
    runtime::check(cudaDeviceSynchronize(), k.name);
    std::vector<float> ms(static_cast<std::size_t>(reps));
    for (int i = 0; i < reps; ++i) ms[i] = timers[i].elapsed_ms();
    std::sort(ms.begin(), ms.end());
    r.median_ms = reps % 2 ? ms[reps / 2] : 0.5 * (ms[reps / 2 - 1] + ms[reps / 2]);
    r.min_ms = ms.front();
    r.max_ms = ms.back();
    if (tile_cycles && k.run_timed) {  // separate calls: the probe's copies stay out of the timings
      r.tiles = ablation::tiles(r.n);
      runtime::device_buffer cycles(8 * static_cast<std::size_t>(r.tiles));
      std::vector<long long> one(static_cast<std::size_t>(r.tiles)), all;
      for (int i = 0; i < reps; ++i) {
        tb = most;
        k.run_timed(ins[static_cast<std::size_t>(i) % ins.size()], o, temp.get(), tb, nullptr, cycles.as<long long>());
        runtime::check(cudaMemcpy(one.data(), cycles.get(), cycles.bytes(), cudaMemcpyDeviceToHost), k.name + " tile cycles");
        all.insert(all.end(), one.begin(), one.end());
      }
      std::sort(all.begin(), all.end());
      r.tile_cycles_min = double(all.front());
      r.tile_cycles_median = double(all[all.size() / 2]);
      r.tile_cycles_p90 = double(all[all.size() * 9 / 10]);
    }
  } catch (const cuda_error& e) {
    r.error = e.what();
    runtime::throw_if_context_lost(k.name);
  }
}

const row* find_row(const std::vector<row>& rows, const std::string& kernel, dtype t, const std::string& dist) {
  for (const auto& r : rows)
    if (r.k->name == kernel && r.type == t && r.dist == dist && r.error.empty()) return &r;
  return nullptr;
}

bool unsegmented(op o) { return o == op::copy || o == op::reduce || o == op::scan; }

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// One row of the bench JSON: the kernel, its input and, unless it failed, its timings and
// ratios (null where the copy or the read-only ceiling was not measured).
json row_json(const row& r, const std::vector<row>& rows, int reps) {
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
  if (!r.error.empty()) {
    j["error"] = r.error;
    return j;
  }
  j["time_ms"] = r.median_ms, j["time_ms_min"] = r.min_ms, j["time_ms_max"] = r.max_ms;
  j["throughput_gitems_per_s"] = r.gitems(), j["bandwidth_gb_per_s"] = r.gbs();
  if (r.tiles > 0) {
    j["tiles"] = r.tiles, j["tile_cycles_median"] = r.tile_cycles_median;
    j["tile_cycles_min"] = r.tile_cycles_min, j["tile_cycles_p90"] = r.tile_cycles_p90;
  }
  const row* copy = find_row(rows, "copy", r.type, "none");
  j["copy_bandwidth_fraction"] = copy ? json(r.gbs() / copy->gbs()) : json(nullptr);
  // The operation's byte floor moved at the read-only ceiling's bandwidth, over this time.
  const row* read = find_row(rows, "read_only_reduce", r.type, "none");
  j["floor_fraction_of_read_only"] = read ? json(r.floor_gbs() / read->gbs()) : json(nullptr);
  json speedup = json::object();
  for (const auto& ref : reference_kernels(r.k->kind)) {
    const row* b = ref == r.k->name ? nullptr : find_row(rows, ref, r.type, r.dist);
    if (b != nullptr) speedup[ref] = b->median_ms / r.median_ms;
  }
  j["speedup_vs"] = std::move(speedup);
  return j;
}

}  // namespace

std::vector<distribution> bench_distributions() {
  std::vector<distribution> v;
  for (const auto& d : standard_distributions())
    if (d.k != distribution::kind::no_flags && d.k != distribution::kind::first_flag_0) v.push_back(d);
  return v;
}

int run_bench(const bench_options& o, std::ostream& os) {
  const runtime::device_info dev = runtime::require_device();
  const auto kernels = require_kernels(o.kernels);
  const auto dists = o.dists.empty() ? bench_distributions() : o.dists;
  const std::int64_t n = o.n;
  if (o.offset < 0 || o.offset > 15) throw std::invalid_argument("--offset must be in 0..15 items");
  const auto pad = static_cast<std::size_t>(o.offset);
  const auto vbytes = static_cast<std::size_t>(n) * 4;
  const double set_bytes = double(n) * 5;
  const int sets = o.sets > 0 ? o.sets
                              : std::clamp(static_cast<int>(std::ceil(3.0 * double(dev.l2_bytes) / set_bytes)), 2, 64);
  bool any_keys = false, any_byte_keys = false, any_offsets = false, any_scd = false;
  for (auto* k : kernels) {
    if (!k->unavailable.empty()) os << "skipping " << k->name << ": " << k->unavailable << '\n';
    any_keys = any_keys || k->needs_keys;
    any_byte_keys = any_byte_keys || k->needs_byte_keys;
    any_offsets = any_offsets || k->needs_offsets;
    any_scd = any_scd || k->reports_offsets;
  }
  os << "mmvram kernels bench on " << dev.name << " (" << dev.sm_count << " SMs, L2 " << (dev.l2_bytes >> 20)
     << " MiB, CUDA " << runtime::cuda_version_string(dev.runtime_version) << "), n = " << format_count(n) << ", "
     << o.reps << " reps after " << o.warmup << " warm-up, " << sets << " input sets, seed " << o.seed
     << (o.offset ? ", x, flags and out " + std::to_string(o.offset) + " items past aligned" : std::string())
     << '\n';

  std::vector<row> rows;
  std::unique_ptr<unsigned char[]> hbuf(new unsigned char[vbytes]);
  std::unique_ptr<std::uint8_t[]> hflags(new std::uint8_t[static_cast<std::size_t>(n)]);
  runtime::device_buffer out(vbytes + 4 * pad), scd_offsets(any_scd ? 8 * static_cast<std::size_t>(n + 1) : 0), scd_count(8);
  const device_outputs outs{out.as<unsigned char>() + 4 * pad, scd_offsets.as<std::int64_t>(),
                            scd_count.as<std::int64_t>()};
  int set_index = 0;
  for (dtype t : o.dtypes) {
    std::vector<runtime::device_buffer> xs, fl, keys, byte_keys, offs;
    std::vector<device_inputs> ins(static_cast<std::size_t>(sets));
    for (int s = 0; s < sets; ++s) {
      fill_values(t, hbuf.get(), n, mix64(o.seed + static_cast<std::uint64_t>(++set_index)));
      xs.emplace_back(vbytes + 4 * pad);
      runtime::check(cudaMemcpy(xs.back().as<unsigned char>() + 4 * pad, hbuf.get(), vbytes, cudaMemcpyHostToDevice), "cudaMemcpy");
      fl.emplace_back(static_cast<std::size_t>(n) + pad);
      keys.emplace_back(any_keys ? vbytes : 0);
      byte_keys.emplace_back(any_byte_keys ? static_cast<std::size_t>(n) : 0);
      offs.emplace_back();
      ins[s] = device_inputs{};
      ins[s].type = t;
      ins[s].n = n;
      ins[s].x = xs.back().as<unsigned char>() + 4 * pad;
      ins[s].flags = fl.back().as<std::uint8_t>() + pad;
      ins[s].keys = keys.back().as<std::int32_t>();
      ins[s].byte_keys = byte_keys.back().as<std::uint8_t>();
      ins[s].num_segments = 1;
    }
    // Unsegmented kernels: the copy, the reduction and the scans, distribution "none".
    for (auto* k : kernels) {
      if (!unsegmented(k->kind) || !k->unavailable.empty()) continue;
      row r;
      r.k = k;
      r.type = t;
      r.n = n;
      time_kernel(r, *k, ins, outs, o.warmup, o.reps, o.tile_cycles);
      rows.push_back(r);
    }
    for (const distribution& d : dists) {
      std::int64_t segs0 = 0;
      for (int s = 0; s < sets; ++s) {
        fill_flags(d, hflags.get(), n, mix64(o.seed + static_cast<std::uint64_t>(++set_index)));
        const std::int64_t segs = count_segments(hflags.get(), n);
        if (s == 0) segs0 = segs;
        runtime::check(cudaMemcpy(fl[s].as<std::uint8_t>() + pad, hflags.get(), static_cast<std::size_t>(n), cudaMemcpyHostToDevice), "cudaMemcpy");
        ins[s].num_segments = segs;
        if (any_keys) {  // preparation, outside the timed region
          std::size_t tb = 0;
          baselines::make_segment_keys(ins[s].flags, keys[s].as<std::int32_t>(), n, nullptr, tb);
          runtime::device_buffer tmp(tb);
          baselines::make_segment_keys(ins[s].flags, keys[s].as<std::int32_t>(), n, tmp.get(), tb);
        }
        if (any_byte_keys) {
          std::size_t tb = 0;
          baselines::make_segment_keys(ins[s].flags, byte_keys[s].as<std::uint8_t>(), n, nullptr, tb);
          runtime::device_buffer tmp(tb);
          baselines::make_segment_keys(ins[s].flags, byte_keys[s].as<std::uint8_t>(), n, tmp.get(), tb);
        }
        if (any_offsets) {
          offs[s] = runtime::device_buffer();  // free the previous distribution's first
          offs[s] = runtime::device_buffer(8 * static_cast<std::size_t>(segs + 1));
          std::size_t tb = 0;
          baselines::make_segment_offsets(ins[s].flags, offs[s].as<std::int64_t>(), scd_count.as<std::int64_t>(), n, nullptr, tb);
          runtime::device_buffer tmp(tb);
          baselines::make_segment_offsets(ins[s].flags, offs[s].as<std::int64_t>(), scd_count.as<std::int64_t>(), n, tmp.get(), tb);
          ins[s].offsets = offs[s].as<std::int64_t>();
        }
        runtime::check(cudaDeviceSynchronize(), "input preparation");
      }
      for (auto* k : kernels) {
        if (unsegmented(k->kind) || !k->unavailable.empty()) continue;
        row r;
        r.k = k;
        r.type = t;
        r.n = n;
        r.dist = d.name();
        r.dist_family = d.family();
        r.mean = d.mean;
        r.segments = segs0;
        time_kernel(r, *k, ins, outs, o.warmup, o.reps, o.tile_cycles);
        rows.push_back(r);
      }
      os << "  " << dtype_name(t) << " " << d.name() << " done\n";
      os.flush();
    }
  }

  // Table.
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
    const row* copy = find_row(rows, "copy", r.type, "none");
    const row* read = find_row(rows, "read_only_reduce", r.type, "none");
    std::string sp;
    for (const auto& ref : reference_kernels(r.k->kind)) {
      const row* b = ref == r.k->name ? nullptr : find_row(rows, ref, r.type, r.dist);
      if (b == nullptr) continue;
      char s[96];
      std::snprintf(s, sizeof s, " %s %.2fx", ref.c_str(), b->median_ms / r.median_ms);
      sp += s;
    }
    std::snprintf(buf, sizeof buf, "%-27s %-4s %-16s %9.3f %9.1f %8.0f %5.0f%% %5.0f%% %s\n", r.k->name.c_str(),
                  dtype_name(r.type), r.dist.c_str(), r.median_ms, r.gitems(), r.gbs(),
                  copy ? 100.0 * r.gbs() / copy->gbs() : NAN, read ? 100.0 * r.floor_gbs() / read->gbs() : NAN,
                  sp.c_str());
    os << buf;
  }

  if (!o.out_path.empty()) {
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
    j["n"] = n, j["reps"] = o.reps, j["warmup"] = o.warmup, j["input_sets"] = sets;
    j["working_set_bytes"] = static_cast<std::uint64_t>(set_bytes * sets);
    j["seed"] = o.seed, j["pointer_offset_items"] = o.offset;
    j["timing"] = "CUDA events around each call; median over reps, input sets rotated per call";
    json out_rows = json::array();
    for (const auto& r : rows) out_rows.push_back(row_json(r, rows, o.reps));
    j["rows"] = std::move(out_rows);
    write_json_file(o.out_path, j);
    os << "wrote " << o.out_path << '\n';
  }
  return failures == 0 ? 0 : 1;
}

}  // namespace mmv::tool::kernels
