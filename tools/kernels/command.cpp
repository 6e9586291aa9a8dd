// `mmvram kernels check|bench|profile|tune|accuracy|stress|state-passing|multi-gpu|spmv`: the command lines of the
// fused CUDA kernels' tool (namespace mmv::tool::kernels), parsed with the tool's helpers
// (cli.hpp) against the option tables of usage.cpp. Exit codes (tools/main.cpp): 0 ok; 1 a kernel failed (or the run threw
// after parsing: a CUDA error, a lost context); 2 a usage error (usage_error, thrown to main,
// including every check of the options' meaning made before the run), an output file that cannot
// be written (io_error: checked before the run, and again when written) or no CUDA device.
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "accuracy.hpp"
#include "backend_compare.hpp"
#include "bench.hpp"
#include "check.hpp"
#include "check_algorithm.hpp"
#include "cli.hpp"
#include "command_options.hpp"
#include "commands.hpp"
#include "mmvram/harness/registry.hpp"
#include "mmvram/harness/state_passing_inputs.hpp"
#if defined(MMVRAM_HAVE_NCCL)
#include "multi_gpu.hpp"
#endif
#include "output.hpp"
#include "spmv_bench.hpp"
#include "state_passing_bench.hpp"
#include "stress.hpp"
#include "tune.hpp"

namespace mmv::tool {
namespace {

using namespace mmv::tool::kernels;
using options = std::map<std::string, std::function<void(const std::string&)>>;
using switches = std::map<std::string, std::function<void()>>;

// `kernels check`: the kernel suite, or with ALGO one input through every path of ALGO.
int run_check_command(const std::vector<std::string>& args) {
  check_options o;
  algorithm_check_options a;
  o.seed = a.seed = fresh_seed();
  std::vector<std::string> suite_only, algorithm_only;  // options given that need no ALGO / ALGO
  auto suite = [&](const std::string& name, auto&& set) {
    return [&, name, set](const auto&... v) { suite_only.push_back(name), set(v...); };
  };
  auto algo = [&](const std::string& name, auto&& set) {
    return [&, name, set](const std::string& v) { algorithm_only.push_back(name), set(v); };
  };
  walk("kernels check", args,
       options{{"--seed", [&](const std::string& v) { o.seed = a.seed = parse_seed(v); }},
               {"--dtypes", [&](const std::string& v) { o.dtypes = a.dtypes = parse_dtypes(v); }},
               {"--kernels", suite("--kernels", [&](const std::string& v) { o.kernels = v; })},
               {"--out", suite("--out", [&](const std::string& v) { o.json_path = v; })},
               {"--n", algo("--n", [&](const std::string& v) { a.n = parse_count_in(v, "--n", 1, std::int64_t{1} << 24); })},
               {"--s", algo("--s", [&](const std::string& v) { a.s = parse_int_in(v, "--s", 2, 4096); })},
               {"--density", algo("--density", [&](const std::string& v) {
                  a.density = parse_real_in(v, "--density", 0, 1);
                })}},
       switches{{"--quick", suite("--quick", [&] { o.quick = true; })},
                {"--no-big", suite("--no-big", [&] { o.big = false; })},
                {"--verbose", suite("--verbose", [&] { o.verbose = true; })}},
       [&](const std::string& p) {
         if (!a.algorithm.empty()) throw usage_error("kernels check takes one algorithm (got '" + a.algorithm + "' and '" + p + "')");
         a.algorithm = p;
       });
  if (a.algorithm.empty()) {
    if (!algorithm_only.empty()) throw usage_error(algorithm_only.front() + " applies to kernels check ALGO only");
    require_selection(o.kernels);
    require_writable(o.json_path, "--out");
    if (!have_device("kernels check")) return 2;
    return run_check(o, std::cout);
  }
  if (!suite_only.empty()) throw usage_error(suite_only.front() + " applies to the kernel suite (kernels check without ALGO)");
  try {
    (void)find_algorithm(a.algorithm);
  } catch (const model_error& e) {
    throw usage_error(e.what());
  }
  if (!checkable(a.algorithm)) throw usage_error(not_checkable_reason(a.algorithm));
  if (!have_device("kernels check")) return 2;
  return run_algorithm_check(a, std::cout);
}

// bench and profile: one option set; profile calls each kernel a few times, untimed by design.
int run_bench_command(const std::vector<std::string>& args, bool profile) {
  const std::string command = profile ? "kernels profile" : "kernels bench";
  bench_options o;
  o.seed = fresh_seed();
  if (profile) {
    o.kernels.clear();
    o.sets = 1, o.warmup = 1, o.reps = 1;
    o.dtypes = {dtype::f32};
    o.dists = {*distribution::parse("geometric:32")};
  }
  options opts{{"--seed", [&](const std::string& v) { o.seed = parse_seed(v); }},
               {"--kernels", [&](const std::string& v) { o.kernels = v; }},
               {"--dtypes", [&](const std::string& v) { o.dtypes = parse_dtypes(v); }},
               {"--dists", [&](const std::string& v) { o.dists = parse_dists(v); }},
               {"--n", [&](const std::string& v) { o.n = parse_count_in(v, "--n", 1, std::int64_t{1} << 33); }},
               {"--offset", [&](const std::string& v) { o.offset = parse_count_in(v, "--offset", 0, 15); }}};
  switches sw;
  if (profile) {
    opts["--calls"] = [&](const std::string& v) { o.reps = parse_int_in(v, "--calls", 1, 1000); };
  } else {
    opts["--reps"] = [&](const std::string& v) { o.reps = parse_int_in(v, "--reps", 1, 100000); };
    opts["--warmup"] = [&](const std::string& v) { o.warmup = parse_int_in(v, "--warmup", 0, 1000); };
    opts["--sets"] = [&](const std::string& v) { o.sets = parse_int_in(v, "--sets", 1, 64); };
    opts["--out"] = [&](const std::string& v) { o.out_path = v; };
    sw["--tile-cycles"] = [&] { o.tile_cycles = true; };
  }
  walk(command, args, opts, sw, [&](const std::string& p) { no_positional(command, p); });
  if (profile && o.kernels.empty()) throw usage_error("kernels profile needs --kernels NAME");
  require_selection(o.kernels);
  require_writable(o.out_path, "--out");
  if (!have_device(command)) return 2;
  return run_bench(o, std::cout);
}

// tune: every tile policy candidate of the fused kernels, timed as bench times.
int run_tune_command(const std::vector<std::string>& args) {
  tune_options o;
  o.seed = fresh_seed();
  walk("kernels tune", args,
       options{{"--seed", [&](const std::string& v) { o.seed = parse_seed(v); }},
               {"--dtypes", [&](const std::string& v) { o.dtypes = parse_dtypes(v); }},
               {"--dists", [&](const std::string& v) { o.dists = parse_dists(v); }},
               {"--n", [&](const std::string& v) { o.n = parse_count_in(v, "--n", 1, std::int64_t{1} << 33); }},
               {"--reps", [&](const std::string& v) { o.reps = parse_int_in(v, "--reps", 1, 100000); }},
               {"--warmup", [&](const std::string& v) { o.warmup = parse_int_in(v, "--warmup", 0, 1000); }},
               {"--sets", [&](const std::string& v) { o.sets = parse_int_in(v, "--sets", 1, 64); }},
               {"--out", [&](const std::string& v) { o.out_path = v; }}},
       {}, [&](const std::string& p) { no_positional("kernels tune", p); });
  require_writable(o.out_path, "--out");
  if (!have_device("kernels tune")) return 2;
  return run_tune(o, std::cout);
}

int run_accuracy_command(const std::vector<std::string>& args) {
  accuracy_options o;
  o.seed = fresh_seed();
  walk("kernels accuracy", args,
       options{{"--n", [&](const std::string& v) { o.n = parse_count_in(v, "--n", 1, std::int64_t{1} << 30); }},
               {"--seed", [&](const std::string& v) { o.seed = parse_seed(v); }},
               {"--kernels", [&](const std::string& v) { o.kernels = v; }},
               {"--out", [&](const std::string& v) { o.out_path = v; }}},
       {}, [&](const std::string& p) { no_positional("kernels accuracy", p); });
  require_selection(o.kernels);
  require_writable(o.out_path, "--out");
  if (!have_device("kernels accuracy")) return 2;
  return run_accuracy(o, std::cout);
}

int run_stress_command_line(const std::vector<std::string>& args) {
  stress_options o;
  o.seed = fresh_seed();
  bool backend = true;
  const std::int64_t top = std::int64_t{1} << 28;
  walk("kernels stress", args,
       options{{"--seconds", [&](const std::string& v) { o.seconds = parse_real_in(v, "--seconds", 0, 86400); }},
               {"--cases", [&](const std::string& v) { o.max_cases = parse_count_in(v, "--cases", 1, INT64_MAX); }},
               {"--threads", [&](const std::string& v) { o.threads = parse_int_in(v, "--threads", 1, 64); }},
               {"--min-n", [&](const std::string& v) { o.min_n = parse_count_in(v, "--min-n", 1, top); }},
               {"--max-n", [&](const std::string& v) { o.max_n = parse_count_in(v, "--max-n", 1, top); }},
               {"--seed", [&](const std::string& v) { o.seed = parse_seed(v); }},
               {"--kernels", [&](const std::string& v) { o.kernels = v; }},
               {"--out", [&](const std::string& v) { o.json_path = v; }}},
       switches{{"--no-state-passing", [&] { o.state_passing = false; }},
                {"--no-backend", [&] { backend = false; }},
                {"--no-load", [&] { o.load = false; }}},
       [&](const std::string& p) { no_positional("kernels stress", p); });
  if (o.min_n > o.max_n) throw usage_error("--min-n must not exceed --max-n");
  std::string err;
  const auto selected = select_kernels(o.kernels, err);
  if (!err.empty()) throw usage_error("--kernels: " + err);
  // stress calls the fused kernels only (run_stress): refuse the others rather than drop them.
  std::string fused, other;
  for (const kernel_info* k : selected) {
    std::string& list = k->family == "ours" || k->family == "ablation" ? fused : other;
    list += (list.empty() ? "" : ", ") + k->name;
  }
  if (fused.empty() && !o.state_passing)
    throw usage_error("--kernels: no fused kernel selected (kernels stress calls ours, ablation or their names, not " + other + ")");
  if (!other.empty())
    throw usage_error("--kernels: kernels stress calls the fused kernels only (ours, ablation or their names), not " + other);
  require_writable(o.json_path, "--out");
  if (backend) {
    o.extra_case = [](std::uint64_t seed) { return gpu::random_backend_case(seed); };
    o.extra_name = "cuda_backend";
  }
  if (!have_device("kernels stress")) return 2;
  return run_stress_command(o, std::cout);
}

int run_state_passing_command(const std::vector<std::string>& args) {
  state_passing_options o;
  o.seed = fresh_seed();
  walk("kernels state-passing", args,
       options{{"--sequences", [&](const std::string& v) { o.sequences = parse_int_in(v, "--sequences", 1, 65535); }},
               {"--mu", [&](const std::string& v) { o.mu = parse_real_in(v, "--mu", 0, 12); }},
               {"--sigma", [&](const std::string& v) { o.sigma = parse_real_in(v, "--sigma", 0, 3); }},
               {"--chunk-tokens", [&](const std::string& v) { o.chunk_tokens = parse_int_in(v, "--chunk-tokens", 1, 4096); }},
               {"--heads", [&](const std::string& v) { o.heads = parse_int_in(v, "--heads", 1, 1024); }},
               {"--rows", [&](const std::string& v) { o.rows = parse_int_in(v, "--rows", 1, 1024); }},
               {"--cols", [&](const std::string& v) { o.cols = parse_int_in(v, "--cols", 32, 4096); }},
               {"--reps", [&](const std::string& v) { o.reps = parse_int_in(v, "--reps", 1, 10000); }},
               {"--calls", [&](const std::string& v) { o.calls = parse_int_in(v, "--calls", 1, 1000); }},
               {"--seed", [&](const std::string& v) { o.seed = parse_seed(v); }},
               {"--out", [&](const std::string& v) { o.out_path = v; }}},
       {}, [&](const std::string& p) { no_positional("kernels state-passing", p); });
  if (o.cols % 32 != 0) throw usage_error("--cols must be a multiple of 32 (per-row decays)");
  // Bound the host arrays by the batch this seed draws (the bench draws the same one).
  const std::int64_t chunks = inputs::lognormal_chunk_offsets(o.sequences, o.mu, o.sigma, o.chunk_tokens, o.seed).back();
  if (double(chunks) * o.heads * o.rows * o.cols > 2e9)
    throw usage_error("the batch would be too large (" + std::to_string(chunks) + " chunks, over 2e9 states)");
  require_writable(o.out_path, "--out");
  if (!have_device("kernels state-passing")) return 2;
  return run_state_passing_bench(o, std::cout);
}

int run_spmv_command(const std::vector<std::string>& args) {
  spmv_options o;
  o.seed = fresh_seed();
  bool quick = false, nnz_given = false;
  walk("kernels spmv", args,
       options{{"--matrices", [&](const std::string& v) {
                  const auto known = spmv_generated_names();
                  o.generated.emplace();
                  for (const auto& m : split(v, ',')) {
                    if (m == "none") continue;
                    if (std::find(known.begin(), known.end(), m) == known.end())
                      throw usage_error("--matrices: unknown matrix '" + m + "' (bigbird, power_law, banded, giant_row, empty_rows, none)");
                    o.generated->push_back(m);
                  }
                }},
               {"--matrix", [&](const std::string& v) { o.files = split(v, ','); }},
               {"--nnz", [&](const std::string& v) { o.nnz = parse_count_in(v, "--nnz", 1 << 10, std::int64_t{1} << 30), nnz_given = true; }},
               {"--dtypes", [&](const std::string& v) {
                  o.f32 = o.f64 = false;
                  for (const auto& t : split(v, ',')) {
                    if (t == "f32") o.f32 = true;
                    else if (t == "f64") o.f64 = true;
                    else throw usage_error("--dtypes: unknown type '" + t + "' (f32, f64)");
                  }
                }},
               {"--reps", [&](const std::string& v) { o.reps = parse_int_in(v, "--reps", 1, 100000); }},
               {"--warmup", [&](const std::string& v) { o.warmup = parse_int_in(v, "--warmup", 0, 1000); }},
               {"--seed", [&](const std::string& v) { o.seed = parse_seed(v); }},
               {"--out", [&](const std::string& v) { o.out_path = v; }}},
       switches{{"--quick", [&] { quick = true; }}},
       [&](const std::string& p) { no_positional("kernels spmv", p); });
  if (quick) {
    if (nnz_given) throw usage_error("--quick sets --nnz; give one of them");
    o.nnz = std::int64_t{1} << 16, o.reps = std::min(o.reps, 5), o.warmup = std::min(o.warmup, 1);
  }
  if (o.generated && o.generated->empty() && o.files.empty()) throw usage_error("--matrices none needs --matrix FILES");
  for (const auto& f : o.files)
    if (f.empty()) throw usage_error("--matrix: an empty file name");
  require_writable(o.out_path, "--out");
  if (!have_device("kernels spmv")) return 2;
  return run_spmv_bench(o, std::cout);
}

int run_multi_gpu_command(const std::vector<std::string>& args) {
#if defined(MMVRAM_HAVE_NCCL)
  multi_gpu_options o;
  o.seed = fresh_seed();
  const std::int64_t most = std::int64_t{1} << 34;
  walk("kernels multi-gpu", args,
       options{{"--n", [&](const std::string& v) { o.n_per_gpu = parse_count_in(v, "--n", 1, most); }},
               {"--large-n", [&](const std::string& v) { o.large_n_per_gpu = parse_count_in(v, "--large-n", 1, most); }},
               {"--gpus", [&](const std::string& v) { o.gpus = parse_int_in(v, "--gpus", 2, 64); }},
               {"--reps", [&](const std::string& v) { o.reps = parse_int_in(v, "--reps", 1, 10000); }},
               {"--seed", [&](const std::string& v) { o.seed = parse_seed(v); }},
               {"--out", [&](const std::string& v) { o.out_path = v; }}},
       {}, [&](const std::string& p) { no_positional("kernels multi-gpu", p); });
  require_writable(o.out_path, "--out");
  if (!have_device("kernels multi-gpu")) return 2;
  return run_multi_gpu(o, std::cout);
#else
  (void)args;
  throw usage_error("kernels multi-gpu: this build has no NCCL (gpu/multi was not built)");
#endif
}

int dispatch_kernels(const std::string& sub, const std::vector<std::string>& rest) {
  if (sub == "check") return run_check_command(rest);
  if (sub == "bench") return run_bench_command(rest, false);
  if (sub == "profile") return run_bench_command(rest, true);
  if (sub == "tune") return run_tune_command(rest);
  if (sub == "accuracy") return run_accuracy_command(rest);
  if (sub == "stress") return run_stress_command_line(rest);
  if (sub == "state-passing") return run_state_passing_command(rest);
  if (sub == "multi-gpu") return run_multi_gpu_command(rest);
  if (sub == "spmv") return run_spmv_command(rest);
  throw usage_error("unknown kernels command '" + sub + "' (check, bench, profile, tune, accuracy, stress, state-passing, multi-gpu, spmv)");
}

}  // namespace

int command_kernels(const std::vector<std::string>& args) {
  const bool help = args.empty() ? false : args[0] == "help" || args[0] == "--help" || args[0] == "-h";
  bool sub_help = false;
  for (const auto& a : args) sub_help = sub_help || a == "--help" || a == "-h";
  if (help || sub_help) {
    std::cout << "usage: mmvram kernels check|bench|profile|tune|accuracy|stress|state-passing|multi-gpu|spmv [options]\n"
              << options_text("kernels ");
    return 0;
  }
  if (args.empty())
    throw usage_error("kernels needs a command: check, bench, profile, tune, accuracy, stress, state-passing, multi-gpu or spmv");
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  try {
    return dispatch_kernels(args[0], rest);
  } catch (const usage_error&) {
    throw;
  } catch (const io_error&) {  // an output file: exit 2 like every failed write of the tool
    throw;
  } catch (const std::exception& e) {  // after parsing: a failed run, not a usage error
    std::cerr << "mmvram: kernels " << args[0] << ": " << e.what() << "\n";
    return 1;
  }
}

}  // namespace mmv::tool
