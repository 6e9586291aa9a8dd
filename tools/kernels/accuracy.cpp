#include "mmvram/harness/random_inputs.hpp"
#include "accuracy.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "check.hpp"
#include "mmvram/gpu/ablation.hpp"
#include "mmvram/gpu/runtime/buffer.hpp"
#include "mmvram/gpu/runtime/device.hpp"
#include "mmvram/gpu/runtime/stream.hpp"
#include "json_file.hpp"
#include "mmvram/harness/registry.hpp"

namespace mmv::tool::kernels {
namespace {

using inputs::fill_family;
using inputs::value_family;

void print_row(std::ostream& os, const value_family& f, const check_result& r) {
  char buf[320];
  std::snprintf(buf, sizeof buf, "%-28s %-18s %-15s %8.2e %5.1f %8.2e %5.1f %9lld/%-9lld %8.3f  %s%s\n",
                r.kernel.c_str(), f.name.c_str(), r.distribution.c_str(), r.v.max_scaled_error,
                bits_lost(r.v.max_scaled_error), r.v.max_single_error, bits_lost(r.v.max_single_error),
                static_cast<long long>(r.v.single_bad), static_cast<long long>(r.v.single_results),
                r.v.single_over_derived, r.status.c_str(), r.status == "FAIL" && !r.counts_toward_exit ? " (not counted)" : "");
  os << buf;
}

}  // namespace

std::string default_accuracy_kernels() {
  std::string list;
  for (const char* algorithm : {"sscr", "scd"})
    for (const std::string& k : find_algorithm(algorithm).fused_kernels) list += (list.empty() ? "" : ",") + k;
  return list;
}

int run_accuracy(const accuracy_options& o, std::ostream& os) {
  const runtime::device_info dev = runtime::require_device();
  const auto kernels = require_kernels(o.kernels);
  os << "mmvram kernels accuracy on " << dev.name << ", n = " << format_count(o.n) << ", seed " << o.seed << "\n";
  os << "scaled: max |out - ref| / (sum |x| of the result's segment up to it); bits: of fp32's 24 lost at that error;\n"
        "1-item: max |out - x| / |x| at single-item results, their bits lost, count beyond the single-item bound / count;\n"
        "/derived: V3's single-item error over its derived REVERT bound, the rule's coefficient times (H + |x|) (above 1: the derivation fails)\n"
        "rule: " << describe_f32_rule(gpu::ablation::kWarpBlockItems) << "\n";
  char head[320];
  std::snprintf(head, sizeof head, "%-28s %-18s %-15s %8s %5s %8s %5s %19s %8s  %s\n", "kernel", "values", "starts",
                "scaled", "bits", "1-item", "bits", "1-item bad/all", "/derived", "result");
  os << head;
  struct row {
    value_family f;
    check_result r;
  };
  std::vector<row> rows;
  runtime::host_buffer x(static_cast<std::size_t>(o.n) * 4), flags(static_cast<std::size_t>(o.n));
  int counted = 0, beyond = 0;
  std::uint64_t c = 0;
  for (const value_family& f : inputs::value_families())
    for (const char* dist : {"geometric:32", "geometric:1024"}) {
      const auto d = *distribution::parse(dist);
      fill_family(f, x.as<float>(), o.n, mix64(o.seed + ++c));
      fill_flags(d, flags.as<std::uint8_t>(), o.n, mix64(o.seed + c));
      for (const check_result& r : check_data(kernels, dtype::f32, x.get(), flags.as<std::uint8_t>(), o.n, dist, false)) {
        print_row(os, f, r);
        counted += counted_failure(r);
        beyond += beyond_derivation(r);
        rows.push_back({f, r});
      }
      os.flush();
    }
  if (beyond > 0)
    os << beyond << " V3 results exceed V3's DERIVED bound: the assumptions of docs/gpu_v3_error.md fail here\n";
  if (!o.out_path.empty()) {
    json j;
    j["schema"] = "mmvram-gpu-accuracy/1";
    j["gpu"] = {{"name", dev.name},
                {"compute_capability", std::to_string(dev.cc_major) + "." + std::to_string(dev.cc_minor)}};
    j["cuda_runtime_version"] = runtime::cuda_version_string(dev.runtime_version);
    j["seed"] = o.seed, j["n"] = o.n, j["revert_coefficient"] = kRevertCoefficient;
    j["scaled_error"] = "|out - ref| / sum |x| over the result's segment up to it (float64 reference)";
    j["bits_lost_histogram"] = "results by log2(|out - ref| / (2^-24 * that sum)): bin 0 below 1, bin b in "
                               "[2^(b-1), 2^b), last bin all above";
    json results = json::array();
    for (const auto& [f, r] : rows) {
      json e;
      e["values"] = f.name;
      e["spread_decades"] = f.huge_every > 0 ? json(nullptr) : json(f.decades);
      e["huge_every"] = f.huge_every > 0 ? json(f.huge_every) : json(nullptr);
      const json fields = result_json(r);
      for (const auto& item : fields.items()) e[item.key()] = item.value();
      e["bits_lost_histogram"] = r.v.bits_lost;
      results.push_back(std::move(e));
    }
    j["results"] = std::move(results);
    write_json_file(o.out_path, j);
    os << "wrote " << o.out_path << '\n';
  }
  return counted == 0 ? 0 : 1;
}

}  // namespace mmv::tool::kernels
