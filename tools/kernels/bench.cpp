// mmvram kernels bench, the measurement (bench.hpp: run_bench): input sets on the device, each
// selected kernel timed over them per type and distribution; the report is bench_report.cpp's.
#include "bench.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>

#include "bench_report.hpp"
#include "timing.hpp"
#include "mmvram/gpu/baselines/baselines.hpp"
#include "mmvram/gpu/runtime/buffer.hpp"
#include "mmvram/gpu/runtime/device.hpp"
#include "mmvram/gpu/runtime/stream.hpp"

namespace mmv::tool::kernels {
namespace {

// Median, min and max of the times.
void summarize(std::vector<float> ms, double& median_ms, double& min_ms, double& max_ms) {
  std::sort(ms.begin(), ms.end());
  median_ms = median(std::vector<double>(ms.begin(), ms.end()));
  min_ms = ms.front();
  max_ms = ms.back();
}

// Times k over the input sets (warm-up, then reps calls rotating sets, events around each).
// With prepare (rivals that take keys or offsets): then as many calls again with prepare(set),
// which builds them from the set's flags, inside the events. With tile_cycles, then reps more
// calls with the clock64 probe (fused kernels only).
void time_kernel(bench_row& r, const kernel_info& k, const std::vector<device_inputs>& ins,
                 const device_outputs& o, int warmup, int reps, bool tile_cycles,
                 const std::function<void(std::size_t)>& prepare) {
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
    // reps timed calls (with prepare inside the events when `prepared`); one owning pair of
    // events per call (destroyed on every path), all recorded before the one wait.
    const auto timed = [&](bool prepared) {
      const auto timers = std::make_unique<runtime::event_timer[]>(static_cast<std::size_t>(reps));
      for (int i = 0; i < reps; ++i) {
        const auto set = static_cast<std::size_t>(i) % ins.size();
        tb = most;
        timers[i].start(nullptr);
        if (prepared) prepare(set);
        k.run(ins[set], o, temp.get(), tb, nullptr);
        timers[i].stop(nullptr);
      }
      runtime::check(cudaDeviceSynchronize(), k.name);
      std::vector<float> ms(static_cast<std::size_t>(reps));
      for (int i = 0; i < reps; ++i) ms[i] = timers[i].elapsed_ms();
      return ms;
    };
    summarize(timed(false), r.median_ms, r.min_ms, r.max_ms);
    if (prepare) summarize(timed(true), r.prep_median_ms, r.prep_min_ms, r.prep_max_ms);
    if (tile_cycles && k.run_timed) {  // separate calls: the probe's copies stay out of the timings
      const std::int64_t t = k.tile_items();
      r.tiles = (r.n + t - 1) / t;
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
      r.tile_cycles_median = median(std::vector<double>(all.begin(), all.end()));
      r.tile_cycles_p90 = double(all[all.size() * 9 / 10]);
    }
  } catch (const cuda_error& e) {
    r.error = e.what();
    runtime::throw_if_context_lost(k.name);
  }
}

bool unsegmented(op o) { return o == op::copy || o == op::reduce || o == op::scan; }

}  // namespace

std::vector<distribution> bench_distributions() {
  std::vector<distribution> v;
  for (const auto& d : standard_distributions())
    if (d.k != distribution::kind::no_flags && d.k != distribution::kind::first_flag_0) v.push_back(d);
  return v;
}

int bench_sets(const bench_options& o, const runtime::device_info& dev) {
  return o.sets > 0 ? o.sets
                    : std::clamp(static_cast<int>(std::ceil(3.0 * double(dev.l2_bytes) / (double(o.n) * 5))), 2, 64);
}

std::vector<bench_row> measure_bench(const bench_options& o, const std::vector<const kernel_info*>& kernels, int sets,
                                     std::ostream& os) {
  const auto dists = o.dists.empty() ? bench_distributions() : o.dists;
  const std::int64_t n = o.n;
  if (o.offset < 0 || o.offset > 15) throw std::invalid_argument("--offset must be in 0..15 items");
  const auto pad = static_cast<std::size_t>(o.offset);
  const auto vbytes = static_cast<std::size_t>(n) * 4;
  bool any_keys = false, any_byte_keys = false, any_offsets = false, any_scd = false;
  for (auto* k : kernels) {
    any_keys = any_keys || k->needs_keys;
    any_byte_keys = any_byte_keys || k->needs_byte_keys;
    any_offsets = any_offsets || k->needs_offsets;
    any_scd = any_scd || k->reports_offsets;
  }
  std::vector<bench_row> rows;
  std::unique_ptr<unsigned char[]> hbuf(new unsigned char[vbytes]);
  std::unique_ptr<std::uint8_t[]> hflags(new std::uint8_t[static_cast<std::size_t>(n)]);
  runtime::device_buffer out(vbytes + 4 * pad), scd_offsets(any_scd ? 8 * static_cast<std::size_t>(n + 1) : 0), scd_count(8);
  const device_outputs outs{out.as<unsigned char>() + 4 * pad, scd_offsets.as<std::int64_t>(),
                            scd_count.as<std::int64_t>()};
  int set_index = 0;
  for (dtype t : o.dtypes) {
    std::vector<runtime::device_buffer> xs, fl, keys, byte_keys, offs;
    std::vector<device_inputs> ins(static_cast<std::size_t>(sets));
    std::vector<runtime::device_buffer> prep_temp(static_cast<std::size_t>(sets));
    // Builds set s's keys (int32, uint8) and offsets from its flags, those asked for.
    const auto prepare = [&](std::size_t s, bool k32, bool k8, bool offsets) {
      std::size_t tb = prep_temp[s].bytes();
      if (k32) baselines::make_segment_keys(ins[s].flags, keys[s].as<std::int32_t>(), n, prep_temp[s].get(), tb);
      tb = prep_temp[s].bytes();
      if (k8) baselines::make_segment_keys(ins[s].flags, byte_keys[s].as<std::uint8_t>(), n, prep_temp[s].get(), tb);
      tb = prep_temp[s].bytes();
      if (offsets)
        baselines::make_segment_offsets(ins[s].flags, offs[s].as<std::int64_t>(), scd_count.as<std::int64_t>(), n,
                                        prep_temp[s].get(), tb);
    };
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
      bench_row r;
      r.k = k;
      r.type = t;
      r.n = n;
      time_kernel(r, *k, ins, outs, o.warmup, o.reps, o.tile_cycles, {});
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
        if (any_offsets) {
          offs[s] = runtime::device_buffer();  // free the previous distribution's first
          offs[s] = runtime::device_buffer(8 * static_cast<std::size_t>(segs + 1));
          ins[s].offsets = offs[s].as<std::int64_t>();
        }
        std::size_t most = 1, tb = 0;  // one temporary buffer for every preparation of the set
        if (any_keys) baselines::make_segment_keys(ins[s].flags, keys[s].as<std::int32_t>(), n, nullptr, tb), most = std::max(most, tb);
        if (any_byte_keys) baselines::make_segment_keys(ins[s].flags, byte_keys[s].as<std::uint8_t>(), n, nullptr, tb), most = std::max(most, tb);
        if (any_offsets)
          baselines::make_segment_offsets(ins[s].flags, offs[s].as<std::int64_t>(), scd_count.as<std::int64_t>(), n, nullptr, tb),
              most = std::max(most, tb);
        prep_temp[s] = runtime::device_buffer();
        prep_temp[s] = runtime::device_buffer(most);
        prepare(static_cast<std::size_t>(s), any_keys, any_byte_keys, any_offsets);  // outside the timed region
        runtime::check(cudaDeviceSynchronize(), "input preparation");
      }
      for (auto* k : kernels) {
        if (unsegmented(k->kind) || !k->unavailable.empty()) continue;
        bench_row r;
        r.k = k;
        r.type = t;
        r.n = n;
        r.dist = d.name();
        r.dist_family = d.family();
        r.mean = d.mean;
        r.segments = segs0;
        std::function<void(std::size_t)> rebuild;
        if (k->needs_keys || k->needs_byte_keys || k->needs_offsets)
          rebuild = [&, k](std::size_t s) { prepare(s, k->needs_keys, k->needs_byte_keys, k->needs_offsets); };
        time_kernel(r, *k, ins, outs, o.warmup, o.reps, o.tile_cycles, rebuild);
        rows.push_back(r);
      }
      os << "  " << dtype_name(t) << " " << d.name() << " done\n";
      os.flush();
    }
  }

  return rows;
}

int run_bench(const bench_options& o, std::ostream& os) {
  const runtime::device_info dev = runtime::require_device();
  const auto kernels = require_kernels(o.kernels);
  const int sets = bench_sets(o, dev);
  for (auto* k : kernels)
    if (!k->unavailable.empty()) os << "skipping " << k->name << ": " << k->unavailable << '\n';
  os << "mmvram kernels bench on " << dev.name << " (" << dev.sm_count << " SMs, L2 " << (dev.l2_bytes >> 20)
     << " MiB, CUDA " << runtime::cuda_version_string(dev.runtime_version) << "), n = " << format_count(o.n) << ", "
     << o.reps << " reps after " << o.warmup << " warm-up, " << sets << " input sets, seed " << o.seed
     << (o.offset ? ", x, flags and out " + std::to_string(o.offset) + " items past aligned" : std::string())
     << '\n';
  const std::vector<bench_row> rows = measure_bench(o, kernels, sets, os);
  const int failures = print_bench_table(os, rows);
  if (!o.out_path.empty()) {
    write_bench_json(o, dev, sets, double(o.n) * 5, rows);
    os << "wrote " << o.out_path << '\n';
  }
  return failures == 0 ? 0 : 1;
}

}  // namespace mmv::tool::kernels
