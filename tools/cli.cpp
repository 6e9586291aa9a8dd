// The option sets of `mmvram` commands (cli.hpp: parse_run, parse_sweep, ...): each command's
// handlers, given to walk() with the syntax of cli_syntax.cpp, and the checks across options.
// Range checks live here so that a bad option fails before any work starts.
#include "cli.hpp"
#include "mmvram/model/backend.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <stdexcept>
#include <thread>

namespace mmv::tool {

namespace {

using handler = std::function<void(const std::string&)>;

double check_density(double d, const std::string& text) {
  if (!(d >= 0.0 && d <= 1.0)) throw usage_error("--density must be in [0, 1] (got " + text + ")");
  return d;
}

double density_of_mean_length(const std::string& text) {
  const double l = parse_real(text, "--mean-length");
  if (!(l >= 1.0)) throw usage_error("--mean-length must be at least 1 (got " + text + ")");
  return 1.0 / l;
}

// --heads, --rows, --cols: 1..2^16 each (their product with --n is capped in inputs.cpp).
std::int64_t lane_count(const std::string& text, const std::string& what, input_options& in) {
  in.random_options.push_back(what);
  return parse_int_in(text, what, 1, std::int64_t{1} << 16);
}

// --sm-clock, --memory-clock: MHz, at least 0 (0: not recorded).
double parse_clock(const std::string& text, const std::string& what) {
  const double mhz = parse_real(text, what);
  if (!(mhz >= 0)) throw usage_error(what + " must be at least 0 MHz (got " + text + ")");
  return mhz;
}

// --repeat sets the timed runs of a timing backend (the registry in backend.hpp says which time).
void require_timing_backend(const std::string& backend) {
  if (!backend_times(backend))
    throw usage_error("--repeat sets the timed runs on a device: it needs --backend " + backend_choices(true));
}

// A backend of the registry, built into this program or not (make_backend says which is absent).
std::string parse_backend(const std::string& text) {
  for (const std::string& name : backend_names())
    if (text == name) return text;
  throw usage_error("--backend must be " + backend_choices() + " (got " + text + ")");
}

// --executor: how a timing backend issues the instructions (machine_config::executor).
std::string parse_executor(const std::string& text) {
  if (text == "in-order" || text == "graph" || text == "dag") return text;
  throw usage_error("--executor must be in-order, graph or dag (got " + text + ")");
}

// An executor other than in-order issues the instructions on a device.
void require_executor_backend(const std::string& executor, const std::string& backend) {
  if (executor != "in-order" && !backend_times(backend))
    throw usage_error("--executor " + executor + " runs on a device: it needs --backend " + backend_choices(true));
}

report_format parse_format(const std::string& text) {
  if (text == "table") return report_format::table;
  if (text == "json") return report_format::json;
  if (text == "csv") return report_format::csv;
  throw usage_error("--format must be table, json or csv (got " + text + ")");
}

number_format parse_mode(const std::string& text) {
  try {
    return parse_number_format(text);
  } catch (const model_error& e) {
    throw usage_error(std::string("--mode: ") + e.what());
  }
}

}  // namespace

run_options parse_run(const std::vector<std::string>& args) {
  run_options o;
  bool bits_given = false, density_given = false, repeat_given = false;
  auto& in = o.input;
  const std::map<std::string, handler> options{
      {"--n", [&](const std::string& v) {
         in.n = parse_count(v, "--n");
         if (in.n < 1) throw usage_error("--n must be at least 1 (got " + v + ")");
         in.random_options.push_back("--n");
       }},
      {"--s", [&](const std::string& v) { o.s = parse_int_in(v, "--s", 2, 4096); }},
      {"--bits", [&](const std::string& v) { o.bits = parse_int_in(v, "--bits", 2, 64), bits_given = true; }},
      {"--mode", [&](const std::string& v) { o.mode = parse_mode(v); }},
      {"--density", [&](const std::string& v) {
         if (density_given) throw usage_error("give only one of --density and --mean-length");
         in.density = check_density(parse_real(v, "--density"), v), density_given = true;
         in.random_options.push_back("--density");
       }},
      {"--mean-length", [&](const std::string& v) {
         if (density_given) throw usage_error("give only one of --density and --mean-length");
         in.density = density_of_mean_length(v), density_given = true;
         in.random_options.push_back("--mean-length");
       }},
      {"--dist", [&](const std::string& v) {
         in.dist = inputs::distribution::parse(v);
         if (!in.dist)
           throw usage_error("--dist: unknown distribution '" + v +
                             "' (one_segment, no_flags, first_flag_0, all_length_1, geometric:M, pareto:M, fixed:L)");
         in.random_options.push_back("--dist");
       }},
      {"--seed", [&](const std::string& v) {
         in.seed = parse_seed(v);
         in.random_options.push_back("--seed");
       }},
      {"--max-value", [&](const std::string& v) {
         in.max_value = parse_count(v, "--max-value");
         in.random_options.push_back("--max-value");
       }},
      {"--heads", [&](const std::string& v) { in.heads = lane_count(v, "--heads", in); }},
      {"--rows", [&](const std::string& v) { in.rows = lane_count(v, "--rows", in); }},
      {"--cols", [&](const std::string& v) { in.cols = lane_count(v, "--cols", in); }},
      {"--decay", [&](const std::string& v) {
         if (v != "per-row" && v != "per-head") throw usage_error("--decay must be per-row or per-head (got " + v + ")");
         in.per_head = v == "per-head";
         in.random_options.push_back("--decay");
       }},
      {"--values", [&](const std::string& v) { in.values_file = v; }},
      {"--flags", [&](const std::string& v) { in.flags_file = v; }},
      {"--decays", [&](const std::string& v) { in.decays_file = v; }},
      {"--values2", [&](const std::string& v) { in.values2_file = v; }},
      {"--matrix", [&](const std::string& v) { in.matrix_file = v; }},
      {"--vector", [&](const std::string& v) { in.vector_file = v; }},
      {"--bigbird", [&](const std::string& v) {
         in.bigbird = parse_count_list(v, "--bigbird");
         if (in.bigbird.size() < 2 || in.bigbird.size() > 4 || in.bigbird[0] < 1)
           throw usage_error("--bigbird takes BLOCK,RANDOM[,WINDOW[,GLOBAL]] (got " + v + ")");
       }},
      {"--format", [&](const std::string& v) { o.format = parse_format(v); }},
      {"--dag", [&](const std::string& v) { o.dag_file = v; }},
      {"--backend", [&](const std::string& v) { o.backend = parse_backend(v); }},
      {"--executor", [&](const std::string& v) { o.executor = parse_executor(v); }},
      {"--repeat", [&](const std::string& v) { o.repeat = parse_int_in(v, "--repeat", 1, 1000), repeat_given = true; }},
      {"--profile", [&](const std::string& v) { o.profile = v; }},
      {"--output", [&](const std::string& v) { o.output_file = v; }},
  };
  const std::map<std::string, std::function<void()>> switches{
      {"--trace", [&] { o.trace = true; }}, {"--strict-pricing", [&] { o.strict_pricing = true; }},
      {"--min-bits", [&] { o.min_bits = true; }}, {"--signed", [&] {
        in.signed_values = true;
        in.random_options.push_back("--signed");
      }}};
  walk("run", args, options, switches, [&](const std::string& p) {
    if (!o.algorithm.empty()) throw usage_error("run takes one algorithm (got '" + o.algorithm + "' and '" + p + "')");
    o.algorithm = p;
  });
  if (o.algorithm.empty()) throw usage_error("run needs an algorithm name (see mmvram list)");
  if (!bits_given && o.mode == number_format::float64) o.bits = 64;
  if (o.trace && o.format == report_format::csv) throw usage_error("--trace needs --format table or json");
  if (o.strict_pricing && o.format == report_format::csv)
    throw usage_error("--strict-pricing needs --format table or json");
  if (o.min_bits && o.format == report_format::csv) throw usage_error("--min-bits needs --format table or json");
  if (o.min_bits && o.mode != number_format::integer) throw usage_error("--min-bits applies to --mode integer only");
  for (const auto& [file, option] : {std::pair{&in.flags_file, "--flags"}, {&in.decays_file, "--decays"},
                                      {&in.values2_file, "--values2"}})
    if (!file->empty() && in.values_file.empty()) throw usage_error(std::string(option) + " needs --values");
  if (!in.vector_file.empty() && in.matrix_file.empty()) throw usage_error("--vector needs --matrix");
  if (in.dist && density_given) throw usage_error("--dist places the segment starts; give it without --density or --mean-length");
  if (repeat_given) require_timing_backend(o.backend);
  require_executor_backend(o.executor, o.backend);
  return o;
}

sweep_options parse_sweep(const std::vector<std::string>& args) {
  sweep_options o;
  bool bits_given = false, repeat_given = false;
  const std::map<std::string, handler> options{
      {"--n", [&](const std::string& v) { o.ns = parse_count_list(v, "--n"); }},
      {"--s", [&](const std::string& v) {
         o.ss.clear();
         for (auto s : parse_count_list(v, "--s")) o.ss.push_back(parse_int_in(std::to_string(s), "--s", 2, 4096));
       }},
      {"--bits", [&](const std::string& v) {
         o.bits.clear(), bits_given = true;
         for (auto b : parse_count_list(v, "--bits")) o.bits.push_back(parse_int_in(std::to_string(b), "--bits", 2, 64));
       }},
      {"--density", [&](const std::string& v) {
         o.densities.clear();
         for (const auto& d : split(v, ',')) o.densities.push_back(check_density(parse_real(d, "--density"), d));
       }},
      {"--mean-length", [&](const std::string& v) {
         o.densities.clear();
         for (const auto& l : split(v, ',')) o.densities.push_back(density_of_mean_length(l));
       }},
      {"--mode", [&](const std::string& v) { o.mode = parse_mode(v); }},
      {"--seed", [&](const std::string& v) { o.seed = parse_seed(v); }},
      {"--out", [&](const std::string& v) { o.out = v; }},
      {"--jobs", [&](const std::string& v) { o.jobs = parse_int_in(v, "--jobs", 1, 1024); }},
      {"--backend", [&](const std::string& v) { o.backend = parse_backend(v); }},
      {"--executor", [&](const std::string& v) { o.executor = parse_executor(v); }},
      {"--repeat", [&](const std::string& v) { o.repeat = parse_int_in(v, "--repeat", 1, 1000), repeat_given = true; }},
      {"--profile", [&](const std::string& v) { o.profile = v; }},
  };
  const std::map<std::string, std::function<void()>> switches{{"--quiet", [&] { o.quiet = true; }},
                                                              {"--keep-failed", [&] { o.keep_failed = true; }}};
  walk("sweep", args, options, switches, [&](const std::string& p) { o.algorithms.push_back(p); });
  if (o.algorithms.empty()) throw usage_error("sweep needs at least one algorithm name (see mmvram list)");
  if (o.out.empty()) throw usage_error("sweep needs --out FILE.csv");
  if (o.ns.empty()) o.ns = parse_count_list("2^10..2^16", "--n");
  for (auto n : o.ns)
    if (n < 1) throw usage_error("--n must be at least 1");
  if (o.ss.empty()) o.ss = {16};
  if (o.bits.empty()) o.bits = {o.mode == number_format::float64 && !bits_given ? 64 : 32};
  if (o.densities.empty()) o.densities = {0.05};
  if (repeat_given) require_timing_backend(o.backend);
  require_executor_backend(o.executor, o.backend);
  if (o.jobs == 0) o.jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (o.backend == "cuda") o.jobs = 1;  // one GPU: points run one at a time, so their timings are not shared
  return o;
}

run_options parse_predict(const std::vector<std::string>& args) {
  run_options o = parse_run(args);
  if (o.profile.empty()) throw usage_error("predict needs --profile FILE.json (a device profile from mmvram calibrate)");
  if (o.backend != "simulate") throw usage_error("predict runs on the CPU: --backend must be simulate");
  return o;
}

calibrate_options parse_calibrate(const std::vector<std::string>& args) {
  calibrate_options o;
  const std::map<std::string, handler> options{
      {"--backend", [&](const std::string& v) { o.backend = parse_backend(v); }},
      {"--executor", [&](const std::string& v) { o.executor = parse_executor(v); }},
      {"--out", [&](const std::string& v) { o.out = v; }},
      {"--max-m", [&](const std::string& v) {
         o.max_m = parse_count(v, "--max-m");
         if (o.max_m < 256 || o.max_m > (std::int64_t{1} << 30)) throw usage_error("--max-m must be in 2^8..2^30 (got " + v + ")");
       }},
      {"--s", [&](const std::string& v) {
         o.mmu_s.clear();
         for (auto s : parse_count_list(v, "--s")) o.mmu_s.push_back(parse_int_in(std::to_string(s), "--s", 2, 4096));
       }},
      {"--repeat", [&](const std::string& v) { o.repeat = parse_int_in(v, "--repeat", 1, 1000); }},
      {"--seed", [&](const std::string& v) { o.seed = parse_seed(v); }},
      {"--device", [&](const std::string& v) { o.device_name = v; }},
      {"--sm-clock", [&](const std::string& v) { o.sm_clock_mhz = parse_clock(v, "--sm-clock"); }},
      {"--memory-clock", [&](const std::string& v) { o.memory_clock_mhz = parse_clock(v, "--memory-clock"); }},
      {"--l2-bytes", [&](const std::string& v) {
         o.l2_bytes = parse_count(v, "--l2-bytes");
         if (o.l2_bytes > (std::int64_t{1} << 50)) throw usage_error("--l2-bytes must be at most 2^50 (got " + v + ")");
       }},
      {"--refit", [&](const std::string& v) { o.refit = v; }},
  };
  walk("calibrate", args, options, {{"--quiet", [&] { o.quiet = true; }}, {"--back-to-back", [&] { o.interleaved = false; }}},
       [](const std::string& p) { throw usage_error("calibrate takes no argument (got '" + p + "')"); });
  if (o.out.empty()) throw usage_error("calibrate needs --out FILE.json");
  if (o.backend == "simulate" && o.refit.empty()) throw usage_error("calibrate times a device: it needs --backend cuda");
  require_executor_backend(o.executor, o.backend);
  if (o.executor == "dag") throw usage_error("calibrate times single instructions: --executor must be in-order or graph");
  return o;
}

list_options parse_list(const std::vector<std::string>& args) {
  list_options o;
  walk("list", args, {{"--format", [&](const std::string& v) { o.format = parse_format(v); }}}, {},
       [](const std::string& p) { throw usage_error("list takes no argument (got '" + p + "')"); });
  if (o.format == report_format::csv) throw usage_error("list prints --format table or json");
  return o;
}

instructions_options parse_instructions(const std::vector<std::string>& args) {
  instructions_options o;
  walk("instructions", args,
       {{"--s", [&](const std::string& v) { o.s = parse_int_in(v, "--s", 2, 4096); }},
        {"--m", [&](const std::string& v) {
           o.m = parse_count(v, "--m");
           if (o.m < 1 || o.m > (std::int64_t{1} << 40))
             throw usage_error("--m must be in 1..2^40 (got " + v + ")");
         }}},
       {}, [](const std::string& p) { throw usage_error("instructions takes no argument (got '" + p + "')"); });
  return o;
}

closed_forms_options parse_closed_forms(const std::vector<std::string>& args) {
  closed_forms_options o;
  walk("closed-forms", args,
       {{"--n", [&](const std::string& v) { o.ns = parse_count_list(v, "--n"); }},
        {"--s", [&](const std::string& v) {
           for (auto s : parse_count_list(v, "--s")) o.ss.push_back(parse_int_in(std::to_string(s), "--s", 2, 4096));
         }}},
       {}, [&](const std::string& p) { o.algorithms.push_back(p); });
  if (o.algorithms.empty()) throw usage_error("closed-forms needs at least one algorithm name");
  if (o.ns.empty()) throw usage_error("closed-forms needs --n LIST");
  for (auto n : o.ns)
    if (n < 1 || n > (std::int64_t{1} << 40)) throw usage_error("closed-forms: --n must be in 1..2^40");
  if (o.ss.empty()) o.ss = {16};
  return o;
}

}  // namespace mmv::tool
