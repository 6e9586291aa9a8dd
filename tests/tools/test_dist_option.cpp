// `mmvram run --dist NAME`: segment starts of a named distribution of the one input library
// (harness/random_inputs.hpp), the flags the kernels' generator draws for that seed, on every
// shape with segments (hostile ones included: no flag at position 0, every position a start,
// one segment), and its refusals.
#include "catch.hpp"
#include "tool_process.hpp"

#include "inputs.hpp"

#include "mmvram/harness/random_inputs.hpp"
#include "mmvram/harness/registry.hpp"

#include <string>
#include <vector>

using mmv::test::json_field;
using mmv::test::run_tool;

TEST_CASE("--dist draws the kernels' flags for the seed", "[inputs][dist]") {
  for (const char* name : {"one_segment", "no_flags", "first_flag_0", "all_length_1", "geometric:7", "pareto:16", "fixed:5"})
    for (std::uint64_t seed : {1, 99}) {
      CAPTURE(name, seed);
      mmv::tool::input_options o;
      o.n = 1001;
      o.seed = seed;
      o.dist = mmv::inputs::distribution::parse(name);
      REQUIRE(o.dist);
      std::vector<std::uint8_t> want(1001);
      mmv::inputs::fill_flags(*o.dist, want.data(), 1001, seed);
      const auto in = mmv::tool::make_input(mmv::find_algorithm("sscr"), o, mmv::number_format::integer, 32);
      CHECK(in.flags == std::vector<mmv::word>(want.begin(), want.end()));
      // SpMV's rows follow the same starts; its first row starts at 0 even without a flag there.
      const auto a = mmv::tool::make_input(mmv::find_algorithm("spmv"), o, mmv::number_format::float64, 64);
      REQUIRE(!a.matrix.row_ptr.empty());
      CHECK(a.matrix.row_ptr.front() == 0);
      std::int64_t rows = 0;
      for (std::size_t i = 0; i < want.size(); ++i) rows += want[i] != 0 || i == 0;
      CHECK(a.matrix.rows == rows);
    }
}

TEST_CASE("mmvram run --dist verifies on every shape with segments", "[inputs][dist]") {
  for (const std::string algo : {"sscr", "scd", "schwartz-segmented-scan", "block-sscr", "spmv"})
    for (const std::string dist : {"no_flags", "first_flag_0", "all_length_1", "pareto:64", "fixed:3"})
      for (const std::string mode : {"integer", "float32"}) {
        CAPTURE(algo, dist, mode);
        const auto r = run_tool({"run", algo, "--n", "777", "--dist", dist, "--mode", mode, "--format", "json"});
        REQUIRE(r.code == 0);
        CHECK(json_field(r.out, "verified") == "true");
      }
  for (const std::string algo : {"decayed-scan-stable", "state-passing"}) {
    CAPTURE(algo);
    const auto r = run_tool({"run", algo, "--n", "100", "--dist", "first_flag_0", "--mode", "float64", "--format", "json"});
    REQUIRE(r.code == 0);
    CHECK(json_field(r.out, "verified") == "true");
  }
}

TEST_CASE("mmvram run --dist reports the density its starts have", "[inputs][dist]") {
  // fixed:4 on n = 1000: 250 segments, density 0.25 (not --density's default 0.05).
  const auto r = run_tool({"run", "sscr", "--n", "1000", "--dist", "fixed:4", "--format", "json"});
  REQUIRE(r.code == 0);
  CHECK(json_field(r.out, "density") == "0.25");
}

TEST_CASE("mmvram run --dist: refusals", "[inputs][dist]") {
  CHECK(run_tool({"run", "sscr", "--dist", "pareto"}).code == 2);
  CHECK(run_tool({"run", "sscr", "--dist", "lognormal:3"}).code == 2);
  CHECK(run_tool({"run", "sscr", "--dist", "fixed:0"}).code == 2);
  CHECK(run_tool({"run", "sscr", "--dist", "fixed:4", "--density", "0.1"}).code == 2);
  CHECK(run_tool({"run", "sscr", "--mean-length", "3", "--dist", "fixed:4"}).code == 2);
  const auto r = run_tool({"run", "matmul-scan", "--dist", "fixed:4"});
  CHECK(r.code == 2);
  CHECK(r.err.find("--dist sets segment starts") != std::string::npos);
}
