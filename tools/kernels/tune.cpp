// mmvram kernels tune (tune.hpp): the candidates as kernels of their own, each call forcing its
// candidate (tuning::force), measured by kernels bench's measure_bench on the same input sets.
#include "tune.hpp"

#include <cmath>
#include <cstdio>
#include <deque>

#include "bench_report.hpp"
#include "json_file.hpp"
#include "kernels.hpp"
#include "mmvram/gpu/tuning.hpp"

namespace mmv::tool::kernels {
namespace {

namespace tuning = mmv::gpu::tuning;

// Puts every kernel back on the table's choice however run_tune ends.
struct unforce {
  ~unforce() {
    for (auto k : tuning::kKernels) tuning::force(k, -1);
  }
};

const kernel_info& registry_kernel(const std::string& name) {
  for (const kernel_info& k : all_kernels())
    if (k.name == name) return k;
  throw std::logic_error("mmvram kernels tune: no kernel " + name);
}

json policy_json(int index, const tuning::policy& p) {
  return {{"candidate", index}, {"passes", p.passes}, {"stages", p.stages}, {"min_blocks", p.min_blocks},
          {"tile_items", p.tile_items()}};
}

}  // namespace

std::vector<distribution> tune_distributions() {
  using K = distribution::kind;
  return {{K::one_segment, 0}, {K::geometric, 32}, {K::geometric, 1024}, {K::all_length_1, 1}};
}

int tune_choice(const std::vector<std::vector<double>>& times) {
  int best = -1;
  double best_log = INFINITY, first_log = INFINITY;
  for (std::size_t c = 0; c < times.size(); ++c) {
    if (times[c].empty()) return -1;
    double sum = 0;
    for (double t : times[c]) sum += std::log(t);
    if (!std::isfinite(sum)) return -1;
    const double mean_log = sum / double(times[c].size());
    if (c == 0) first_log = mean_log;
    if (mean_log < best_log) best_log = mean_log, best = int(c);
  }
  return best > 0 && first_log - best_log < std::log1p(kTuneMinGain) ? 0 : best;
}

int run_tune(const tune_options& o, std::ostream& os) {
  const runtime::device_info dev = runtime::require_device();
  const unforce restore;
  // Candidate kernels: the V0 entry of the registry, renamed NAME/cI, forcing candidate I per call.
  std::deque<kernel_info> cands;
  std::vector<const kernel_info*> ptrs;
  for (auto tk : tuning::kKernels)
    for (int i = 0; i < tuning::kCandidates; ++i) {
      kernel_info c = registry_kernel(tuning::kernel_name(tk));
      c.name += "/c" + std::to_string(i);
      c.run = [run = c.run, tk, i](const device_inputs& in, const device_outputs& out, void* temp, std::size_t& bytes,
                                   cudaStream_t s) {
        tuning::force(tk, i);
        run(in, out, temp, bytes, s);
      };
      cands.push_back(std::move(c));
      ptrs.push_back(&cands.back());
    }
  bench_options b;
  b.n = o.n, b.reps = o.reps, b.warmup = o.warmup, b.sets = o.sets, b.seed = o.seed, b.dtypes = o.dtypes;
  b.dists = o.dists.empty() ? tune_distributions() : o.dists;
  const int sets = bench_sets(b, dev);
  os << "mmvram kernels tune on " << dev.name << " (cc " << dev.cc_major << "." << dev.cc_minor << ", " << dev.sm_count
     << " SMs), n = " << format_count(b.n) << ", " << b.reps << " reps after " << b.warmup << " warm-up, " << sets
     << " input sets, seed " << b.seed << ", " << tuning::kCandidates << " candidates per kernel\n";
  const std::vector<bench_row> rows = measure_bench(b, ptrs, sets, os);

  json jrows = json::array(), choice = json::object(), cand_json = json::object();
  std::array<int, 3> table{}, chosen{};
  const tuning::device_key key{dev.name, dev.cc_major, dev.cc_minor};
  int failures = 0;
  char buf[256];
  os << "\n";
  for (std::size_t ki = 0; ki < tuning::kKernels.size(); ++ki) {
    const auto tk = tuning::kKernels[ki];
    const auto& pol = tuning::candidates(tk);
    std::vector<std::vector<double>> times(tuning::kCandidates);
    cand_json[tuning::kernel_name(tk)] = json::array();
    for (int i = 0; i < tuning::kCandidates; ++i) {
      cand_json[tuning::kernel_name(tk)].push_back(policy_json(i, pol[i]));
      for (const bench_row& r : rows) {
        if (r.k != ptrs[ki * tuning::kCandidates + i]) continue;
        json j = policy_json(i, pol[i]);
        j["kernel"] = tuning::kernel_name(tk), j["dtype"] = dtype_name(r.type), j["distribution"] = r.dist;
        j["num_segments"] = r.segments;
        if (!r.error.empty()) {
          ++failures, j["error"] = r.error;
          times[i].push_back(NAN);
        } else {
          j["time_ms"] = r.median_ms, j["time_ms_min"] = r.min_ms, j["time_ms_max"] = r.max_ms;
          times[i].push_back(r.median_ms);
        }
        std::snprintf(buf, sizeof buf, "%-20s c%d (%d passes, %d stage, %d blocks/SM) %-4s %-15s %9.3f ms\n",
                      tuning::kernel_name(tk), i, pol[i].passes, pol[i].stages, pol[i].min_blocks, dtype_name(r.type),
                      r.dist.c_str(), r.median_ms);
        os << buf;
        jrows.push_back(std::move(j));
      }
    }
    const int best = tune_choice(times);
    chosen[ki] = best;
    table[ki] = tuning::choose(tk, key);
    json geo = json::array();
    for (const auto& t : times) {
      double s = 0;
      for (double x : t) s += std::log(x);
      geo.push_back(t.empty() ? NAN : std::exp(s / double(t.size())));
    }
    json c = best >= 0 ? policy_json(best, pol[best]) : json::object();
    c["geomean_ms"] = geo;
    c["gain_over_default"] = best >= 0 ? geo[0].get<double>() / geo[best].get<double>() - 1 : NAN;
    c["table_choice"] = table[ki];
    choice[tuning::kernel_name(tk)] = c;
    std::snprintf(buf, sizeof buf, "%-20s choice c%d: geometric mean %.3f ms, %.1f%% faster than c0 (%.3f ms); the table says c%d\n",
                  tuning::kernel_name(tk), best, best >= 0 ? geo[best].get<double>() : NAN,
                  best >= 0 ? 100 * c["gain_over_default"].get<double>() : NAN, geo[0].get<double>(), table[ki]);
    os << buf;
  }
  std::snprintf(buf, sizeof buf, "{\"%s\", %d, %d, {%d, %d, %d}}", dev.name.c_str(), dev.cc_major, dev.cc_minor,
                chosen[0], chosen[1], chosen[2]);
  os << "table row for gpu/kernels/src/tuning.cpp: " << buf << '\n';
  if (!o.out_path.empty()) {
    json j;
    j["schema"] = "mmvram-gpu-tune/1";
    j["date_utc"] = utc_now();
    j["gpu"] = {{"name", dev.name},
                {"cc_major", dev.cc_major},
                {"cc_minor", dev.cc_minor},
                {"sm_count", dev.sm_count},
                {"l2_bytes", static_cast<std::uint64_t>(dev.l2_bytes)},
                {"memory_bytes", static_cast<std::uint64_t>(dev.memory_bytes)}};
    j["cuda_runtime_version"] = runtime::cuda_version_string(dev.runtime_version);
    j["cuda_driver_version"] = runtime::cuda_version_string(dev.driver_version);
    j["n"] = b.n, j["reps"] = b.reps, j["warmup"] = b.warmup, j["input_sets"] = sets, j["seed"] = b.seed;
    j["timing"] = "kernels bench's: CUDA events around each call; median over reps, input sets rotated per call";
    j["choice_rule"] = "per kernel, the candidate with the least geometric mean time_ms over its rows where that is at least " +
                      std::to_string(int(kTuneMinGain * 100)) + "% faster than candidate 0's (t0 / t >= 1 + margin), else candidate 0";
    j["candidates"] = std::move(cand_json);
    j["rows"] = std::move(jrows);
    j["choice"] = std::move(choice);
    j["table_row"] = buf;
    write_json_file(o.out_path, j);
    os << "wrote " << o.out_path << '\n';
  }
  return failures == 0 ? 0 : 1;
}

}  // namespace mmv::tool::kernels
