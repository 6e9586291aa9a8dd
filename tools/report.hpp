// The cost report of one run and its three renderings: a table for people, JSON and CSV with
// the fixed schema of docs/tool.md (units in the field names) for scripts.
#pragma once
#include "mmvram/algorithms/registry.hpp"
#include "mmvram/model/ledger.hpp"

#include <cstdint>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mmv::tool {

struct run_report {
  std::string algorithm, units, format, input_source;  // input_source: "random", "files" or "bigbird"
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
  algorithm_outcome outcome;
  double wall_time_s = 0;
  std::string error;  // a sweep point that raised an error instead of finishing
  bool prediction_matches() const;
};

void print_table(std::ostream& out, const run_report& r);
void print_json(std::ostream& out, const run_report& r);
// The CSV schema shared by `run --report csv` and `sweep`: one header, one row per run.
const std::vector<std::string>& csv_columns();
std::string csv_header();
std::string csv_row(const run_report& r);
// Every instruction of the run: unit, op, region, length, cost and an output preview.
void print_trace(std::ostream& out, const run_report& r);

}  // namespace mmv::tool
