// The cost report of one run and its three renderings: a table for people, JSON and CSV with
// the fixed schema of docs/tool.md (units in the field names) for scripts.
#pragma once
#include "mmvram/harness/registry.hpp"
#include "mmvram/harness/strict_pricing.hpp"
#include "mmvram/model/ledger.hpp"
#include "mmvram/prediction/time_model.hpp"

#include <cstdint>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mmv::tool {

// Everything one run produced: what ran, on which input, the ledger's counts and the prediction.
struct run_report {
  std::string algorithm, units;
  std::string mode;          // number format: integer, float32 or float64
  std::string input_source;  // "random", "files" or "bigbird"
  std::int64_t n = 0;
  int s = 0, bits = 0;
  double density = 0;         // requested (random) or measured segments/n (files)
  std::uint64_t seed = 0;
  std::int64_t segments = 0;  // segments (rows for SpMV); 1 for an unsegmented scan
  unit_costs totals;
  std::int64_t depth = 0;
  std::map<std::string, unit_costs> regions;
  std::vector<instruction_record> trace;  // every instruction, when --trace
  std::optional<cost_prediction> predicted;
  std::optional<strict_costs> strict;     // the run re-priced strictly, with --strict-pricing
  algorithm_outcome outcome;
  double wall_time_s = 0;
  std::string backend = "simulate";  // who executed the instructions
  std::string executor = "in-order";  // how the cuda backend issued them: in-order, graph or dag
  // Timing backends (cuda), medians over the timed repetitions. in-order: the sum of the
  // instructions' device times, their span launched back to back with an event around each
  // instruction, and the span with no event in between (end to end); per-instruction medians in
  // `instructions`. graph, dag: both spans are the summed device time of the run's graphs; there
  // are no per-instruction times (measured_ns stays 0). The host's issue time (front and backend
  // call, MMU and VCU instructions) in every kind of run.
  bool measured = false;
  double measured_ns = 0, measured_span_ns = 0, measured_end_to_end_ns = 0;
  double measured_host_ns = 0, measured_host_end_to_end_ns = 0;
  int repetitions = 0;
  std::vector<instruction_record> instructions;  // every record with its measured_ns (timed runs)
  std::optional<time_prediction> predicted_time;  // --profile: device time predicted from the ledger
  std::string profile_device;                     // the profile's GPU
  // --profile on a timed run: per entry of `instructions`, its class and the class time the
  // profile predicts for it (the executor's inf/nan check after it not included).
  std::vector<std::string> instruction_classes;
  std::vector<double> instruction_predicted_ns;
  // Integer runs: the smallest B this input needs, from the algorithm's formula (word_bits.hpp),
  // and whether it is exact (B - 1 overflows) or an upper bound.
  std::optional<int> min_word_bits;
  bool min_word_bits_exact = false;
  std::optional<int> min_word_bits_searched;  // --min-bits: the smallest B found by re-running
  std::string error;    // a sweep point that raised an error, or a run with a float overflow
  bool counted = true;  // the counts are the run's (false: it raised before finishing)
  // True when every predicted field equals the measured one (false without a prediction).
  bool prediction_matches() const;
};

// The report for people: inputs, output preview, verification, measured vs predicted counts,
// then the counts per region.
void print_table(std::ostream& out, const run_report& r);
// The report as one JSON object (schema "mmvram-run/4", docs/tool.md): the CSV fields, then
// output preview, mismatch, regions and, with --trace, every instruction.
void print_json(std::ostream& out, const run_report& r);
// The CSV schema shared by `run --format csv` and `sweep`: one header, one row per run.
const std::vector<std::string>& csv_columns();
// The column names joined by commas (no newline).
std::string csv_header();
// One run as a CSV line (no newline): empty cells for fields that do not apply.
std::string csv_row(const run_report& r);
// Every instruction of the run: unit, op, region, length, cost and an output preview.
void print_trace(std::ostream& out, const run_report& r);

}  // namespace mmv::tool
