// mmvram-gpu: check (correctness against CPU references), bench (timings as JSON), profile
// (a few calls of one kernel, for ncu and compute-sanitizer), accuracy (V3's fp32 error against
// the magnitude spread) and stress (the kernels from several threads and streams at once) for
// the CUDA kernels of mmvram and their baselines. Exit codes: 0 ok, 1 a kernel failed (check: a
// counted failure), 2 usage error or no CUDA device.
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "accuracy.hpp"
#include "bench.hpp"
#include "check.hpp"
#include "mmvram/gpu/runtime/buffer.hpp"
#include "mmvram/gpu/runtime/device.hpp"
#include "mmvram/gpu/runtime/stream.hpp"
#include "mmvram/gpu/backend/backend_compare.hpp"
#include "state_passing_bench.hpp"
#include "stress.hpp"

namespace {

using namespace mmv::gpu::harness;
namespace runtime = mmv::gpu::runtime;

const char* usage =
    "usage: mmvram-gpu check [--quick] [--no-big] [--seed S] [--kernels LIST] [--dtypes LIST]\n"
    "                        [--json FILE] [--verbose]\n"
    "       mmvram-gpu bench [--n N] [--reps R] [--warmup W] [--sets K] [--seed S] [--offset O]\n"
    "                        [--kernels LIST] [--dtypes LIST] [--dists LIST] [--tile-cycles]\n"
    "                        [--out FILE.json]\n"
    "       mmvram-gpu profile --kernels NAME [--dtypes T] [--dists D] [--n N] [--offset O]\n"
    "                        [--calls C] [--seed S]\n"
    "  N may be written 2^K or 2^K+C. LIST is comma-separated. --kernels: all (default), ours,\n"
    "  ablation (ours with the in-tile scans on the tensor cores: _tc V1, _tc_rows V2, _tc_warp\n"
    "  V3), baselines, or names (copy, read_only_reduce, matmul_scan, matmul_scan_tc,\n"
    "  matmul_scan_tc_warp, cub_inclusive_sum, sscr_segmented_scan, sscr_segmented_scan_tc,\n"
    "  sscr_segmented_scan_tc_rows, sscr_segmented_scan_tc_warp, vcu_flag_transform_scan,\n"
    "  vcu_min_index_scan, cub_inclusive_sum_by_key, cub_inclusive_sum_by_key_u8,\n"
    "  cub_flag_pair_scan, cccl_segmented_scan, scd_segmented_sum, scd_segmented_sum_tc,\n"
    "  scd_segmented_sum_tc_rows, scd_segmented_sum_tc_warp, cub_segmented_reduce_sum). --dtypes:\n"
    "  f32,i32. --dists: one_segment, no_flags, first_flag_0, all_length_1, geometric:M, pareto:M,\n"
    "  fixed:L. --offset O: x, flags and out O items (0..15) past aligned pointers. --tile-cycles:\n"
    "  R more calls of each fused kernel with its clock64 probe (cycles per tile, in the JSON).\n"
    "  profile: one input set (n = 2^28 by default), one warm-up call, then\n"
    "  C calls (default 1) of the named kernels, untimed by design: run it under ncu or\n"
    "  compute-sanitizer (check --quick --no-big is the small sanitizer suite).\n"
    "       mmvram-gpu state-passing [--sequences S] [--mu M] [--sigma SD] [--chunk-tokens C]\n"
    "                        [--heads H] [--rows N] [--cols V] [--reps R] [--calls K] [--seed S]\n"
    "                        [--out FILE.json]\n"
    "  seed 002's packed batch (token counts ~ LogNormal(M, SD), chunk-aligned) through every\n"
    "  state-propagation method, checked and timed (K launches per timed run) beside a copy.\n"
    "       mmvram-gpu stress [--seconds S] [--cases C] [--threads T] [--min-n N] [--max-n N]\n"
    "                        [--seed S]"
    " [--kernels LIST] [--no-state-passing] [--no-backend] [--no-load]\n"
    "                        [--json FILE]\n"
    "  T threads (default 4), each on its own non-blocking stream, call the fused kernels (default\n"
    "  --kernels ours,ablation) and the state-passing kernels on random sizes in [--min-n, --max-n]\n"
    "  (default 1..6291456), distributions and unaligned pointers, with poisoned outputs and guard bytes; one\n"
    "  more thread compares the simulate and cuda backends on random registered algorithms and one\n"
    "  stream keeps the SMs busy. Every result is checked; exit 1 when any case failed.\n"
    "       mmvram-gpu accuracy [--n N] [--seed S] [--kernels LIST] [--out FILE.json]\n"
    "  fp32 error of the segmented kernels (default V0-V3 of SSCR and SCD) on values spanning\n"
    "  10^0..10^K (K = 0..30) and on small values beside 1e30, against check's rule (n = 2^22).\n"
    "  check and accuracy print FAIL for V3's fp32 (its REVERT subtracts speculative prefixes,\n"
    "  docs/gpu_v3_error.md) but do not count it in the exit status.\n";

struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::int64_t parse_int(std::string_view opt, std::string_view s, std::int64_t lo, std::int64_t hi) {
  std::int64_t v = 0, extra = 0;
  const char* end = s.data() + s.size();
  std::from_chars_result r{};
  if (s.substr(0, 2) == "2^") {
    int k = 0;
    r = std::from_chars(s.data() + 2, end, k);
    if (r.ec == std::errc() && k >= 0 && k < 62) {
      v = std::int64_t{1} << k;
      if (r.ptr != end && (*r.ptr == '+' || *r.ptr == '-')) {
        const bool minus = *r.ptr == '-';
        r = std::from_chars(r.ptr + 1, end, extra);
        v += minus ? -extra : extra;
      }
    } else {
      r.ec = std::errc::invalid_argument;
    }
  } else {
    r = std::from_chars(s.data(), end, v);
  }
  if (r.ec != std::errc() || r.ptr != end || v < lo || v > hi)
    throw usage_error("bad value '" + std::string(s) + "' for " + std::string(opt) + " (an integer in [" +
                      std::to_string(lo) + ", " + std::to_string(hi) + "])");
  return v;
}

std::vector<std::string> split(std::string_view s) {
  std::vector<std::string> out;
  std::stringstream ss{std::string(s)};
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(item);
  return out;
}

std::vector<dtype> parse_dtypes(std::string_view s) {
  std::vector<dtype> v;
  for (const auto& item : split(s)) {
    const auto t = parse_dtype(item);
    if (!t) throw usage_error("unknown dtype '" + item + "' (f32, i32)");
    v.push_back(*t);
  }
  if (v.empty()) throw usage_error("--dtypes needs at least one type");
  return v;
}

std::uint64_t fresh_seed() {
  std::random_device rd;
  return (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
}

double parse_real(std::string_view opt, std::string_view s, double lo, double hi) {
  double v = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size() || !(v >= lo && v <= hi))
    throw usage_error("bad value '" + std::string(s) + "' for " + std::string(opt) + " (a number in [" +
                      std::to_string(int(lo)) + ", " + std::to_string(int(hi)) + "])");
  return v;
}

// Calls handle(option, value) for each option in argv[2..], value() taking the option's
// argument (a usage error when there is none); false when --help asked for the usage (printed).
template <class F>
bool each_option(int argc, char** argv, F&& handle) {
  for (int i = 2; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--help" || a == "-h") {
      std::cout << usage;
      return false;
    }
    auto value = [&]() -> std::string_view {
      if (i + 1 >= argc) throw usage_error(std::string(a) + " needs a value");
      return argv[++i];
    };
    handle(a, value);
  }
  return true;
}

// Whether a CUDA device is usable; prints why subcommand `cmd` cannot run when not.
bool have_device(const char* cmd) {
  runtime::device_info dev;
  std::string why;
  if (runtime::current_device(dev, why)) return true;
  std::cerr << "mmvram-gpu: no CUDA device (" << why << "); " << cmd << " needs a GPU\n";
  return false;
}

int run_state_passing(int argc, char** argv) {
  state_passing_options o;
  o.seed = fresh_seed();
  const bool go = each_option(argc, argv, [&](std::string_view a, auto value) {
    auto small = [&](int lo, int hi) { return static_cast<int>(parse_int(a, value(), lo, hi)); };
    if (a == "--sequences") o.sequences = small(1, 65535);
    else if (a == "--mu") o.mu = parse_real(a, value(), 0, 12);
    else if (a == "--sigma") o.sigma = parse_real(a, value(), 0, 3);
    else if (a == "--chunk-tokens") o.chunk_tokens = small(1, 4096);
    else if (a == "--heads") o.heads = small(1, 1024);
    else if (a == "--rows") o.rows = small(1, 1024);
    else if (a == "--cols") o.cols = small(32, 4096);
    else if (a == "--reps") o.reps = small(1, 10000);
    else if (a == "--calls") o.calls = small(1, 1000);
    else if (a == "--seed") o.seed = static_cast<std::uint64_t>(parse_int(a, value(), 0, INT64_MAX));
    else if (a == "--out") o.out_path = std::string(value());
    else throw usage_error("unknown option '" + std::string(a) + "' for state-passing");
  });
  if (!go) return 0;
  if (o.cols % 32 != 0) throw usage_error("--cols must be a multiple of 32 (per-row decays)");
  // Bound the host arrays: the token counts are capped only by the distribution's tail.
  if (std::exp(o.mu + 4 * o.sigma) / o.chunk_tokens * o.sequences * o.heads * o.rows * o.cols > 2e9)
    throw usage_error("the batch would be too large (over 2e9 states at four standard deviations)");
  if (!have_device("state-passing")) return 2;
  return run_state_passing_bench(o, std::cout);
}

int run_accuracy_command(int argc, char** argv) {
  accuracy_options o;
  o.seed = fresh_seed();
  const bool go = each_option(argc, argv, [&](std::string_view a, auto value) {
    if (a == "--n") o.n = parse_int(a, value(), 1, std::int64_t{1} << 30);
    else if (a == "--seed") o.seed = static_cast<std::uint64_t>(parse_int(a, value(), 0, INT64_MAX));
    else if (a == "--kernels") o.kernels = std::string(value());
    else if (a == "--out") o.out_path = std::string(value());
    else throw usage_error("unknown option '" + std::string(a) + "' for accuracy");
  });
  if (!go) return 0;
  std::string err;
  if (select_kernels(o.kernels, err).empty()) throw usage_error(err);
  if (!have_device("accuracy")) return 2;
  return run_accuracy(o, std::cout);
}

int run_stress(int argc, char** argv) {
  stress_options o;
  o.seed = fresh_seed();
  bool backend = true;
  const bool go = each_option(argc, argv, [&](std::string_view a, auto value) {
    if (a == "--seconds") o.seconds = parse_real(a, value(), 0, 86400);
    else if (a == "--cases") o.max_cases = parse_int(a, value(), 1, INT64_MAX);
    else if (a == "--threads") o.threads = static_cast<int>(parse_int(a, value(), 1, 64));
    else if (a == "--min-n") o.min_n = parse_int(a, value(), 1, std::int64_t{1} << 28);
    else if (a == "--max-n") o.max_n = parse_int(a, value(), 1, std::int64_t{1} << 28);
    else if (a == "--seed") o.seed = static_cast<std::uint64_t>(parse_int(a, value(), 0, INT64_MAX));
    else if (a == "--kernels") o.kernels = std::string(value());
    else if (a == "--no-state-passing") o.state_passing = false;
    else if (a == "--no-backend") backend = false;
    else if (a == "--no-load") o.load = false;
    else if (a == "--json") o.json_path = std::string(value());
    else throw usage_error("unknown option '" + std::string(a) + "' for stress");
  });
  if (!go) return 0;
  if (o.min_n > o.max_n) throw usage_error("--min-n must not exceed --max-n");
  std::string err;
  select_kernels(o.kernels, err);
  if (!err.empty()) throw usage_error(err);
  if (backend) {
    o.extra_case = [](std::uint64_t seed) { return mmv::gpu::random_backend_case(seed); };
    o.extra_name = "cuda_backend";
  }
  if (!have_device("stress")) return 2;
  return run_stress_command(o, std::cout);
}

int run(int argc, char** argv) {
  if (argc < 2) throw usage_error("missing subcommand (check, bench, profile, accuracy, state-passing or stress)");
  const std::string_view cmd = argv[1];
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    std::cout << usage;
    return 0;
  }
  if (cmd == "state-passing") return run_state_passing(argc, argv);
  if (cmd == "stress") return run_stress(argc, argv);
  if (cmd == "accuracy") return run_accuracy_command(argc, argv);
  if (cmd != "check" && cmd != "bench" && cmd != "profile")
    throw usage_error("unknown subcommand '" + std::string(cmd) + "'");
  const bool profile = cmd == "profile";
  check_options c;
  bench_options b;
  c.seed = b.seed = fresh_seed();
  if (profile) {
    b.kernels.clear();
    b.sets = 1;
    b.warmup = 1;
    b.reps = 1;
    b.dtypes = {dtype::f32};
    b.dists = {*distribution::parse("geometric:32")};
  }
  for (int i = 2; i < argc; ++i) {
    const std::string_view a = argv[i];
    auto value = [&]() -> std::string_view {
      if (i + 1 >= argc) throw usage_error(std::string(a) + " needs a value");
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      std::cout << usage;
      return 0;
    }
    const bool is_check = cmd == "check";
    if (a == "--seed") c.seed = b.seed = static_cast<std::uint64_t>(parse_int(a, value(), 0, INT64_MAX));
    else if (a == "--kernels") c.kernels = b.kernels = std::string(value());
    else if (a == "--dtypes") c.dtypes = b.dtypes = parse_dtypes(value());
    else if (is_check && a == "--quick") c.quick = true;
    else if (is_check && a == "--no-big") c.big = false;
    else if (is_check && a == "--verbose") c.verbose = true;
    else if (is_check && a == "--json") c.json_path = std::string(value());
    else if (!is_check && a == "--n") b.n = parse_int(a, value(), 1, std::int64_t{1} << 33);
    else if (!is_check && a == "--offset") b.offset = parse_int(a, value(), 0, 15);
    else if (profile && a == "--calls") b.reps = static_cast<int>(parse_int(a, value(), 1, 1000));
    else if (!is_check && !profile && a == "--reps") b.reps = static_cast<int>(parse_int(a, value(), 1, 100000));
    else if (!is_check && !profile && a == "--warmup") b.warmup = static_cast<int>(parse_int(a, value(), 0, 1000));
    else if (!is_check && !profile && a == "--sets") b.sets = static_cast<int>(parse_int(a, value(), 1, 64));
    else if (!is_check && !profile && a == "--out") b.out_path = std::string(value());
    else if (!is_check && !profile && a == "--tile-cycles") b.tile_cycles = true;
    else if (!is_check && a == "--dists") {
      b.dists.clear();
      for (const auto& item : split(value())) {
        const auto d = distribution::parse(item);
        if (!d) throw usage_error("unknown distribution '" + item + "'");
        b.dists.push_back(*d);
      }
    } else {
      throw usage_error("unknown option '" + std::string(a) + "' for " + std::string(cmd));
    }
  }
  if (profile && b.kernels.empty()) throw usage_error("profile needs --kernels NAME");
  std::string err;
  if (select_kernels(cmd == "check" ? c.kernels : b.kernels, err).empty()) throw usage_error(err);
  if (!have_device(std::string(cmd).c_str())) return 2;
  return cmd == "check" ? run_check(c, std::cout) : run_bench(b, std::cout);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const usage_error& e) {
    std::cerr << "mmvram-gpu: " << e.what() << " (see mmvram-gpu --help)\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "mmvram-gpu: " << e.what() << '\n';
    return 1;
  }
}
