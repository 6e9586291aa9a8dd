// Running one algorithm. The machine records the DAG only when --dag asks for it and the
// instruction previews only for --trace; the counts are the same either way.
#include "runner.hpp"

#include "inputs.hpp"
#include "memory.hpp"
#include "output.hpp"

#include "mmvram/harness/registry.hpp"
#include "mmvram/prediction/profile_file.hpp"
#include "mmvram/prediction/time_model.hpp"

#include <algorithm>
#include <sstream>

namespace mmv::tool {

namespace {

double median(std::vector<double> v) {
  if (v.empty()) return -1;
  std::sort(v.begin(), v.end());
  const std::size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : (v[h - 1] + v[h]) / 2;
}

// The host time spent issuing the MMU and VCU records (loads excluded, as from the span).
double issue_time_ns(const std::vector<instruction_record>& records) {
  double ns = 0;
  for (const auto& rec : records)
    if (rec.where != unit::scalar) ns += rec.host_ns;
  return ns;
}

// On a timing backend: `repeat` runs with an event around every instruction (per-record and
// span medians) and `repeat` runs with none in between (end-to-end median), each on a fresh
// machine after the report's own run, which served as the warm-up; in both, the host time
// spent issuing the instructions. The graph and dag executors time only whole graphs: `repeat`
// runs, whose summed graph time is both the span and the end-to-end time (no per-record times).
void time_on_device(const algorithm_entry& entry, const algorithm_input& input, machine_config config, int repeat,
                    run_report& r) {
  std::vector<std::vector<double>> per_record, host_per_record;
  std::vector<double> spans, ends, hosts, end_hosts;
  std::vector<instruction_record> records;
  for (int k = 0; k < repeat; ++k) {
    machine m(config);
    entry.run(m, input);
    m.collect_timing();
    records = m.costs().records();
    per_record.resize(records.size()), host_per_record.resize(records.size());
    for (std::size_t i = 0; i < records.size(); ++i)
      per_record[i].push_back(records[i].measured_ns), host_per_record[i].push_back(records[i].host_ns);
    spans.push_back(m.costs().span_ns());
    hosts.push_back(issue_time_ns(records));
  }
  config.time_instructions = false;
  for (int k = 0; k < repeat && config.executor == "in-order"; ++k) {
    machine m(config);
    entry.run(m, input);
    m.collect_timing();
    ends.push_back(m.costs().span_ns());
    end_hosts.push_back(issue_time_ns(m.costs().records()));
  }
  r.measured = true;
  r.repetitions = repeat;
  r.measured_span_ns = median(spans);
  const bool in_order = config.executor == "in-order";
  r.measured_end_to_end_ns = in_order ? median(ends) : r.measured_span_ns;
  r.measured_host_ns = median(hosts);
  r.measured_host_end_to_end_ns = in_order ? median(end_hosts) : r.measured_host_ns;
  r.measured_ns = 0;
  for (auto& [name, u] : r.regions) u.measured_ns = 0;
  for (std::size_t i = 0; i < records.size(); ++i) {
    records[i].measured_ns = median(per_record[i]);
    records[i].host_ns = median(host_per_record[i]);
    if (records[i].where == unit::scalar || !in_order) continue;
    r.measured_ns += records[i].measured_ns;
    r.regions[records[i].region].measured_ns += records[i].measured_ns;
  }
  r.totals.measured_ns = r.measured_ns;
  r.instructions = std::move(records);
}

// The smallest B in 2..bits at which `input` runs without a word-width overflow (it runs at
// `bits`), by bisection: the result runs, and one bit less overflows.
int smallest_word_bits(const algorithm_entry& e, const algorithm_input& input, machine_config config, int bits) {
  int fails = 1, runs = bits;
  while (runs - fails > 1) {
    config.word_bits = (fails + runs) / 2;
    machine m(config);
    try {
      e.run(m, input);
      runs = config.word_bits;
    } catch (const width_error&) {
      fails = config.word_bits;
    }
  }
  return runs;
}

// The error of a run whose real result first left the format's range at `bad`.
std::string nonfinite_message(const nonfinite_result& bad) {
  return "float overflow: " + bad.instruction + " (instruction " + std::to_string(bad.sequence) + ") produced " +
         format_value(bad.value, number_format::float64) + " at index " + std::to_string(bad.index) +
         " from finite inputs";
}

}  // namespace

run_report run_once(const run_options& o) {
  const algorithm_entry& entry = find_algorithm(o.algorithm);
  const std::optional<device_profile> profile = o.profile.empty() ? std::nullopt : std::optional(read_profile(o.profile));
  const algorithm_input input = make_input(entry, o.input, o.mode, o.bits);

  machine_config config;
  config.s = o.s;
  config.word_bits = o.bits;
  config.format = o.mode;
  config.record_dag = !o.dag_file.empty();
  config.record_trace = o.trace;
  config.backend = o.backend;
  config.executor = o.executor;
  if (entry.iterated_addition_limit) config.iterated_addition_limit = entry.iterated_addition_limit(input.n);
  const std::optional<cost_prediction> predicted = entry.predicted(input, config);
  machine m(config);

  run_report r;
  r.algorithm = entry.name;
  r.units = entry.units;
  r.mode = to_string(o.mode);
  const bool measured = o.input.from_files() || !o.input.bigbird.empty() || o.input.dist.has_value();
  r.input_source = o.input.from_files() ? "files" : o.input.bigbird.empty() ? "random" : "bigbird";
  r.n = input.n;
  r.s = o.s;
  r.bits = config.word_bits;
  r.seed = o.input.seed;
  r.segments = segment_count(entry.shape, input);
  r.density = measured && r.n > 0 ? static_cast<double>(r.segments) / static_cast<double>(r.n) : o.input.density;
  r.predicted = predicted;
  // Before the run allocates: its longest vector (s-fold cells, bit lanes) against the memory,
  // its simulated operations (s^3 products of padded blocks) against the work limit.
  if (r.predicted)
    require_run_fits(*r.predicted, entry.name + " with n = " + std::to_string(input.n) + ", s = " + std::to_string(o.s));

  r.backend = m.backend_name();
  r.executor = o.executor;
  try {
    r.outcome = entry.run(m, input);
  } catch (const width_error& e) {
    if (o.mode != number_format::integer) throw;
    throw run_width_error(e, min_word_bits(entry, input, o.s).bits);
  }
  m.collect_timing();
  r.wall_time_s = r.outcome.simulate_seconds;

  r.totals = m.costs().totals();
  r.depth = m.costs().depth();
  r.regions = m.costs().by_region();
  if (const auto bad = m.first_nonfinite()) {  // the counts stay; nothing is written
    r.error = nonfinite_message(*bad);
    if (o.trace) r.trace = m.costs().records();
    return r;
  }
  // The graph and dag executors measure no record, only their graphs (span_ns).
  const bool timed = o.executor == "in-order" ? m.costs().measured() : m.costs().span_ns() > 0;
  if (timed && r.outcome.verified) {
    machine_config timed = config;
    timed.record_dag = false, timed.record_trace = false;
    time_on_device(entry, input, timed, o.repeat, r);
  }
  if (profile) {
    r.predicted_time = predict_time(*profile, m.costs().records());
    r.profile_device = escaped(profile->device);  // a name from a file: shown as \xNN where not printable
    for (const auto& rec : r.instructions) r.instruction_classes.push_back(instruction_class(rec));
    r.instruction_predicted_ns = predict_record_times(*profile, r.instructions);
  }
  if (o.trace) r.trace = m.costs().records();
  if (o.strict_pricing) r.strict = strict_pricing(m.costs().records());
  if (!o.dag_file.empty()) {
    std::ostringstream dot;
    m.graph().write_dot(dot);
    write_output_file(o.dag_file, dot.str(), "the DAG file '" + o.dag_file + "'");
  }
  if (!o.output_file.empty()) write_result(o.output_file, r.outcome, o.mode);
  config.record_dag = config.record_trace = false;
  config.backend = "simulate";  // the smallest B is a property of the ledger, found on the CPU
  if (o.mode != number_format::integer) return r;
  const word_bits_need need = min_word_bits(entry, input, o.s);
  r.min_word_bits = need.bits;
  r.min_word_bits_exact = need.exact;
  if (o.min_bits) r.min_word_bits_searched = smallest_word_bits(entry, input, config, o.bits);
  return r;
}

}  // namespace mmv::tool
