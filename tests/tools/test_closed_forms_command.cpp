// `mmvram closed-forms` prints the closed forms (closed_forms.hpp) as CSV up to n = 2^40 and refuses
// algorithms without one; `mmvram run --strict-pricing` adds the strictly re-priced counts
// (strict_pricing.hpp) of the same run to the table and the JSON, and refuses CSV.
#include "catch.hpp"
#include "tool_process.hpp"

#include "mmvram/harness/closed_forms.hpp"
#include "mmvram/algorithms/iterated_addition.hpp"
#include "mmvram/harness/strict_pricing.hpp"

#include <regex>
#include <sstream>

using mmv::test::run_tool;

TEST_CASE("closed-forms prints the closed forms as CSV") {
  const auto r = run_tool({"closed-forms", "sscr", "iterated-addition-segmented-scan", "--n", "2^20,2^40", "--s", "16,128"});
  REQUIRE(r.code == 0);
  std::istringstream lines(r.out);
  std::string line;
  std::getline(lines, line);
  CHECK(line == "algorithm,n,s,steps,mmu_steps,vcu_steps,depth_steps");
  int rows = 0;
  for (const std::string name : {"sscr", "iterated-addition-segmented-scan"})
    for (int s : {16, 128})
      for (std::int64_t n : {std::int64_t{1} << 20, std::int64_t{1} << 40}) {
        const auto p = mmv::closed_form_cost(name, n, s);
        REQUIRE(std::getline(lines, line));
        CHECK(line == name + "," + std::to_string(n) + "," + std::to_string(s) + "," + std::to_string(p.steps()) + "," +
                          std::to_string(p.mmu_steps) + "," + std::to_string(p.vcu_steps) + "," + std::to_string(p.depth));
        ++rows;
      }
  CHECK(rows == 8);
  const auto spmv = run_tool({"closed-forms", "spmv", "--n", "8"});
  CHECK(spmv.code == 2);
  CHECK(spmv.err.find("no closed form in n and s for 'spmv' (its counts depend on") != std::string::npos);
  CHECK(run_tool({"closed-forms", "no-such-algorithm", "--n", "8"}).code == 2);
  CHECK(run_tool({"closed-forms", "sscr"}).code == 2);
  CHECK(run_tool({"closed-forms", "sscr", "--n", "2^41"}).code == 2);
}

TEST_CASE("run --strict-pricing reports the strictly re-priced run") {
  const std::int64_t n = 4096;
  mmv::machine_config c;
  c.s = 4;
  c.iterated_addition_limit = mmv::iterated_addition_block(n);
  mmv::machine m(c);
  mmv::iterated_addition_scan(m, m.load(std::vector<mmv::word>(n, 1)));
  const auto strict = mmv::strict_pricing(m.costs().records());
  const auto json = run_tool({"run", "iterated-addition-scan", "--n", "4096", "--s", "4", "--strict-pricing", "--format", "json"});
  REQUIRE(json.code == 0);
  CHECK(std::regex_search(json.out, std::regex("\"strict_pricing\": \\{\\s*\"steps\": " + std::to_string(strict.steps()) + ",")));
  const auto table = run_tool({"run", "iterated-addition-scan", "--n", "4096", "--s", "4", "--strict-pricing"});
  REQUIRE(table.code == 0);
  CHECK(table.out.find("strict pricing (docs/model.md): steps " + std::to_string(strict.steps())) != std::string::npos);
  CHECK(run_tool({"run", "sscr", "--strict-pricing", "--format", "csv"}).code == 2);
  CHECK(run_tool({"run", "sscr"}).out.find("strict pricing") == std::string::npos);
}
