// `--executor in-order|graph|dag` on run, sweep and calibrate: parsed, refused on the simulate
// backend (and dag by calibrate) with one line and exit 2, and reported in the run's CSV and JSON
// (column `executor`, schema mmvram-run/4). The executors themselves need a GPU:
// tests/gpu/test_executors.cpp.
#include "catch.hpp"
#include "tool_process.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

using mmv::test::run_tool;

namespace {

void require_usage_error(const std::vector<std::string>& args, const std::string& message) {
  const auto r = run_tool(args);
  INFO("stderr: " << r.err << "\nstdout: " << r.out);
  CHECK(r.code == 2);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK(r.err.find(message) != std::string::npos);
  CHECK(r.out.empty());
}

// The cells of one CSV line (quoted cells may hold commas; "" is a quote).
std::vector<std::string> csv_cells(const std::string& line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '"' && quoted && i + 1 < line.size() && line[i + 1] == '"') cells.back() += '"', ++i;
    else if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) cells.emplace_back();
    else cells.back() += c;
  }
  return cells;
}

// The cell of `column` in the one-row CSV `text`.
std::string csv_cell(const std::string& text, const std::string& column) {
  const std::size_t eol = text.find('\n');
  const std::vector<std::string> names = csv_cells(text.substr(0, eol));
  const std::vector<std::string> cells = csv_cells(text.substr(eol + 1, text.find('\n', eol + 1) - eol - 1));
  const auto it = std::find(names.begin(), names.end(), column);
  REQUIRE(it != names.end());
  REQUIRE(cells.size() == names.size());
  return cells[static_cast<std::size_t>(it - names.begin())];
}

}  // namespace

TEST_CASE("--executor other than in-order needs a device backend") {
  const std::string needs = "runs on a device: it needs --backend cuda";
  require_usage_error({"run", "sscr", "--n", "64", "--executor", "graph"}, "--executor graph " + needs);
  require_usage_error({"run", "sscr", "--n", "64", "--backend", "simulate", "--executor", "dag"}, "--executor dag " + needs);
  require_usage_error({"sweep", "sscr", "--n", "64", "--out", "unused.csv", "--executor", "dag"}, "--executor dag " + needs);
  require_usage_error({"calibrate", "--out", "unused.json", "--backend", "simulate", "--refit", "x.json", "--executor", "graph"},
                      "--executor graph " + needs);
}

TEST_CASE("--executor takes in-order, graph or dag; calibrate takes no dag") {
  for (const std::string command : {"run", "sweep"}) {
    std::vector<std::string> args{command, "sscr", "--executor", "stream"};
    if (command == "sweep") args.insert(args.end(), {"--out", "unused.csv"});
    require_usage_error(args, "--executor must be in-order, graph or dag (got stream)");
  }
  require_usage_error({"calibrate", "--out", "unused.json", "--executor", "dag"},
                      "calibrate times single instructions: --executor must be in-order or graph");
}

TEST_CASE("a run reports its executor in the CSV and the JSON") {
  const auto csv = run_tool({"run", "sscr", "--n", "64", "--executor", "in-order", "--format", "csv"});
  REQUIRE(csv.code == 0);
  CHECK(csv_cell(csv.out, "executor") == "in-order");
  CHECK(csv_cell(csv.out, "backend") == "simulate");
  const auto json = run_tool({"run", "sscr", "--n", "64", "--format", "json"});
  REQUIRE(json.code == 0);
  const auto doc = nlohmann::json::parse(json.out);
  CHECK(doc["schema"] == "mmvram-run/4");
  CHECK(doc["executor"] == "in-order");
  CHECK(doc["measured_ns"].is_null());
}
