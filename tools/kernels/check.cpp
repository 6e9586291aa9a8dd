// mmvram kernels check, the suite (check.hpp: run_check): the plan of cases (main sizes over
// every distribution, edge sizes, unaligned pointers, 2^31 + 5 items), their rows as they run,
// the summary per kernel and type, and the JSON report (schema mmvram-gpu-check/1).
#include "check.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>

#include "mmvram/gpu/ablation.hpp"
#include "mmvram/gpu/tuning.hpp"
#include "mmvram/gpu/runtime/device.hpp"
#include "mmvram/gpu/runtime/error.hpp"

namespace mmv::tool::kernels {

namespace {

struct planned_case {
  dtype type;
  std::int64_t n;
  distribution dist;
  bool with_unsegmented;
  std::string group;  // "main", "edge", "unaligned", "big"
  std::int64_t offset = 0;
};

std::vector<planned_case> plan(const check_options& o) {
  using K = distribution::kind;
  std::vector<planned_case> cases;
  const std::int64_t main_n = o.quick ? (std::int64_t{3} << 20) + 1234 : (std::int64_t{1} << 24) + 1234;
  std::vector<std::int64_t> edges{1, 2, 31, 32, 33};
  std::vector<std::int64_t> tiles{256, 1024, 2048, 4096, 8192};  // and every tile policy's (tuning.hpp)
  for (const auto k : mmv::gpu::tuning::kKernels)
    for (const auto& p : mmv::gpu::tuning::candidates(k))
      if (std::find(tiles.begin(), tiles.end(), p.tile_items()) == tiles.end()) tiles.push_back(p.tile_items());
  for (std::int64_t tile : tiles)
    for (std::int64_t m : {tile - 1, tile, tile + 1, 2 * tile + 1}) edges.push_back(m);
  const std::vector<distribution> edge_dists{{K::one_segment, 0}, {K::first_flag_0, 32},
                                             {K::geometric, 32}, {K::all_length_1, 1}, {K::fixed, 32}};
  for (dtype t : o.dtypes) {
    bool first = true;
    for (const distribution& d : standard_distributions()) {
      cases.push_back({t, main_n, d, first, "main"});
      first = false;
    }
    for (std::int64_t m : edges) {
      first = true;
      for (const distribution& d : edge_dists) {
        cases.push_back({t, m, d, first, "edge"});
        first = false;
      }
    }
    // x + 1, flags + 1, out + 1 (and + 3): the kernels' unaligned paths.
    for (std::int64_t off : {1, 3}) {
      first = true;
      for (const distribution& d : standard_distributions()) {
        cases.push_back({t, (std::int64_t{1} << 20) + 77, d, first, "unaligned", off});
        first = false;
      }
    }
  }
  if (!o.quick && o.big)
    for (dtype t : o.dtypes) {
      cases.push_back({t, (std::int64_t{1} << 31) + 5, {K::geometric, 1024}, true, "big"});
      cases.push_back({t, (std::int64_t{1} << 31) + 5, {K::one_segment, 0}, false, "big"});
    }
  return cases;
}

void print_row(std::ostream& os, const check_result& r) {
  char buf[512];
  const std::string dist = r.distribution + (r.pointer_offset ? " +" + std::to_string(r.pointer_offset) : "");
  std::snprintf(buf, sizeof buf, "%-26s %-4s %12s %-16s %10lld %10.2e %8.3f %5.1f  %s", r.kernel.c_str(),
                dtype_name(r.type), format_count(r.n).c_str(), dist.c_str(),
                static_cast<long long>(r.num_segments), r.v.max_error, r.v.worst_ratio,
                bits_lost(r.v.max_scaled_error), r.status.c_str());
  os << buf;
  if (r.status == "FAIL" && !r.counts_toward_exit) os << " (documented inaccuracy, not counted)";
  if (!r.detail.empty() && r.status != "PASS") os << "  " << r.detail;
  os << '\n';
}

void write_json(const std::string& path, const check_options& o, const runtime::device_info& dev,
                const std::vector<check_result>& all, double seconds) {
  json j;
  j["schema"] = "mmvram-gpu-check/1";
  j["gpu"] = {{"name", dev.name},
              {"sm_count", dev.sm_count},
              {"compute_capability", std::to_string(dev.cc_major) + "." + std::to_string(dev.cc_minor)},
              {"memory_bytes", static_cast<std::uint64_t>(dev.memory_bytes)}};
  j["cuda_runtime_version"] = runtime::cuda_version_string(dev.runtime_version);
  j["cuda_driver_version"] = runtime::cuda_version_string(dev.driver_version);
  j["seed"] = o.seed, j["quick"] = o.quick, j["wall_time_s"] = seconds;
  j["f32_bound"] = describe_f32_rule(gpu::ablation::kWarpBlockItems);
  std::map<std::string, int> counts;
  int counted = 0, documented = 0, beyond = 0;
  for (const auto& r : all) {
    ++counts[r.status];
    counted += counted_failure(r);
    documented += r.status == "FAIL" && !r.counts_toward_exit;
    beyond += beyond_derivation(r);
  }
  json summary = json::object(), results = json::array();
  for (const char* s : {"PASS", "FAIL", "ERROR", "SKIPPED"}) summary[s] = counts[s];
  summary["counted_failures"] = counted, summary["documented_inaccuracy_failures"] = documented;
  summary["beyond_derivation"] = beyond;
  summary["exit_status"] = counted == 0 ? 0 : 1;
  for (const auto& r : all) results.push_back(result_json(r));
  j["summary"] = std::move(summary);
  j["results"] = std::move(results);
  write_json_file(path, j);
}

}  // namespace

bool counted_failure(const check_result& r) {
  return r.status == "ERROR" || (r.status == "FAIL" && r.counts_toward_exit);
}

bool beyond_derivation(const check_result& r) {
  return r.accuracy_claim == "documented_inaccuracy" && (r.v.single_over_derived > 1 || r.v.bad > r.v.single_bad);
}

json result_json(const check_result& r) {
  return {{"kernel", r.kernel},
          {"family", r.family},
          {"operation", r.operation},
          {"dtype", dtype_name(r.type)},
          {"n", r.n},
          {"distribution", r.distribution},
          {"num_segments", r.num_segments},
          {"pointer_offset_items", r.pointer_offset},
          {"status", r.status},
          {"accuracy_claim", r.accuracy_claim},
          {"counts_toward_exit", r.counts_toward_exit},
          {"max_rel_error", r.v.max_error},
          {"worst_error_over_bound", r.v.worst_ratio},
          {"max_scaled_error", r.v.max_scaled_error},
          {"bits_lost", bits_lost(r.v.max_scaled_error)},
          {"single_results", r.v.single_results},
          {"single_bad_count", r.v.single_bad},
          {"max_single_rel_error", r.v.max_single_error},
          {"single_bits_lost", bits_lost(r.v.max_single_error)},
          {"single_over_derived", r.v.single_over_derived},
          {"beyond_derivation", beyond_derivation(r)},
          {"bad_count", r.v.bad},
          {"segment_bad_count", r.v.bad - r.v.single_bad},
          {"first_bad_index", r.v.first_bad},
          {"detail", r.detail}};
}

int run_check(const check_options& o, std::ostream& os) {
  const runtime::device_info dev = runtime::require_device();
  const auto kernels = require_kernels(o.kernels);
  const auto cases = plan(o);
  os << "mmvram kernels check on " << dev.name << " (" << dev.sm_count << " SMs, CUDA "
     << runtime::cuda_version_string(dev.runtime_version) << "), seed " << o.seed << (o.quick ? ", quick" : "")
     << ", " << cases.size() << " cases\n";
  char head[256];
  std::snprintf(head, sizeof head, "%-26s %-4s %12s %-16s %10s %10s %8s %5s  %s\n", "kernel", "type", "n",
                "distribution", "segments", "max_err", "err/bnd", "bits", "result");
  os << head;
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<check_result> all;
  bool lost = false;
  auto group_start = t0;
  for (std::size_t c = 0; c < cases.size() && !lost; ++c) {
    const planned_case& pc = cases[c];
    if (c > 0 && (pc.group != cases[c - 1].group || pc.type != cases[c - 1].type)) {
      const auto now = std::chrono::steady_clock::now();
      os << "  (" << cases[c - 1].group << " cases, " << dtype_name(cases[c - 1].type) << ": "
         << std::chrono::duration<double>(now - group_start).count() << " s)\n";
      group_start = now;
    }
    std::vector<check_result> rs;
    try {
      rs = check_case(kernels, pc.type, pc.n, pc.dist, mix64(o.seed + c), pc.with_unsegmented, pc.offset);
    } catch (const cuda_error& e) {
      os << "fatal: " << e.what() << " (case " << format_count(pc.n) << " " << pc.dist.name() << ")\n";
      lost = true;
      check_result r;
      r.kernel = "(context)";
      r.status = "ERROR";
      r.detail = e.what();
      rs.push_back(r);
    }
    for (const auto& r : rs) {
      if (o.verbose || pc.group != "edge" || r.status != "PASS") print_row(os, r);
      all.push_back(r);
    }
    os.flush();
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  // Summary per kernel and type. bits: most of fp32's 24 bits lost against a result's own scale;
  // 1-item bad: single-item results beyond the ordinary bound.
  struct agg {
    int pass = 0, fail = 0, error = 0, skip = 0;
    double max_err = 0, ratio = 0, scaled = 0;
    std::int64_t single_bad = 0;
    std::string claim;
  };
  std::map<std::pair<std::string, std::string>, agg> table;
  int counted = 0, documented = 0, beyond = 0;
  for (const auto& r : all) {
    agg& a = table[{r.kernel, dtype_name(r.type)}];
    if (r.status == "PASS") ++a.pass;
    else if (r.status == "FAIL") ++a.fail;
    else if (r.status == "ERROR") ++a.error;
    else ++a.skip;
    a.max_err = std::max(a.max_err, r.v.max_error);
    a.ratio = std::max(a.ratio, r.v.worst_ratio);
    a.scaled = std::max(a.scaled, r.v.max_scaled_error);
    a.single_bad += r.v.single_bad;
    if (!r.accuracy_claim.empty()) a.claim = r.accuracy_claim;
    counted += counted_failure(r);
    documented += r.status == "FAIL" && !r.counts_toward_exit;
    beyond += beyond_derivation(r);
  }
  os << "\nsummary (seed " << o.seed << ", " << static_cast<int>(seconds) << " s)\n";
  std::snprintf(head, sizeof head, "%-26s %-4s %6s %6s %6s %6s %10s %8s %5s %10s  %s\n", "kernel", "type", "pass",
                "fail", "error", "skip", "max_err", "err/bnd", "bits", "1-item bad", "claim");
  os << head;
  for (const auto& [key, a] : table) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "%-26s %-4s %6d %6d %6d %6d %10.2e %8.3f %5.1f %10lld  %s\n", key.first.c_str(),
                  key.second.c_str(), a.pass, a.fail, a.error, a.skip, a.max_err, a.ratio, bits_lost(a.scaled),
                  static_cast<long long>(a.single_bad), a.claim.c_str());
    os << buf;
  }
  if (beyond > 0)
    os << "check: " << beyond << " fp32 results of V3 exceed its DERIVED error bound: the assumptions of "
                                 "docs/gpu_v3_error.md fail on this device (see single_over_derived, segment_bad_count)\n";
  if (counted > 0) os << "check: FAILED (" << counted << " results)\n";
  else if (documented > 0)
    os << "check: passed (int32 exact, fp32 kernels that claim fp32 accuracy within the bound); " << documented
       << " fp32 results of V3's REVERT FAIL, a documented inaccuracy of the paper's algorithm "
          "(docs/gpu_v3_error.md): recorded, not counted\n";
  else os << "check: all passed\n";
  if (!o.json_path.empty()) {
    write_json(o.json_path, o, dev, all, seconds);
    os << "wrote " << o.json_path << '\n';
  }
  return counted == 0 ? 0 : 1;
}

}  // namespace mmv::tool::kernels
