// `mmvram run` on every registered algorithm, in every number mode it supports, on small random
// inputs (fresh seeds, printed on failure): it must verify against the sequential reference
// and report internally consistent counts. Also: the counts it prints are the ledger's, and a
// verification failure exits with code 1.
#include "catch.hpp"
#include "tool_process.hpp"

#include "mmvram/harness/registry.hpp"
#include "mmvram/algorithms/scan.hpp"
#include "mmvram/algorithms/segmented.hpp"

#include <random>

using mmv::test::json_field;
using mmv::test::run_tool;

namespace {

std::vector<std::string> modes_of(const mmv::algorithm_entry& e) {
  std::vector<std::string> f;
  if (e.integer_ok) f.push_back("integer");
  if (e.float_ok) f.push_back("float64");
  // A method that breaks down by design (the unstable decayed scan overflows float32 once
  // -sum(log a) passes ~88) runs in float64 only.
  if (e.float_ok && !e.breaks_down) f.push_back("float32");
  return f;
}

std::int64_t field_int(const std::string& json, const std::string& key) { return std::stoll(json_field(json, key)); }

}  // namespace

TEST_CASE("run verifies every algorithm on small random inputs") {
  std::random_device rd;
  const auto base_seed = static_cast<unsigned>(rd() % 100000);
  CAPTURE(base_seed);
  const auto& table = mmv::algorithm_table();
  REQUIRE(table.size() >= 8);
  int runs = 0;
  for (const auto& e : table) {
    if (e.shape == mmv::input_shape::matrix_pair) continue;  // n^3 work: its own test below
    for (const auto& mode : modes_of(e))
      for (const std::string n : {"1", "2", "13", "200"})
        for (const std::string s : {"2", "3", "16"}) {
          // A method that breaks down (the unstable form divides by exp(sum log a) over the whole
          // input) can pass the tolerance by n = 200, by design (see "a result that fails verification").
          if (e.breaks_down && n == "200") continue;
          const std::string seed = std::to_string(base_seed + runs++);
          CAPTURE(e.name, mode, n, s, seed);
          std::vector<std::string> args{"run", e.name, "--n", n, "--s", s, "--mode", mode, "--seed", seed,
                                        "--signed", "--format", "json"};
          // --density only where the input has segments (elsewhere the tool refuses it).
          if (e.shape == mmv::input_shape::segmented || e.shape == mmv::input_shape::decayed ||
              e.shape == mmv::input_shape::sparse_matrix)
            args.insert(args.end(), {"--density", "0.2"});
          const auto r = run_tool(args);
          INFO(r.err);
          REQUIRE(r.code == 0);
          CHECK(json_field(r.out, "verified") == "true");
          CHECK(json_field(r.out, "algorithm") == e.name);
          CHECK(field_int(r.out, "n") == std::stoll(n));
          CHECK(field_int(r.out, "steps") == field_int(r.out, "mmu_steps") + field_int(r.out, "vcu_steps"));
          CHECK(field_int(r.out, "work_total_ops") ==
                field_int(r.out, "mmu_multiply_adds") + field_int(r.out, "vcu_work_element_ops"));
          CHECK(field_int(r.out, "depth_steps") <= field_int(r.out, "steps"));
          if (e.units == "VCU only" || e.units == "VCU+iadd") CHECK(field_int(r.out, "mmu_steps") == 0);
        }
  }
  CHECK(runs > 100);
}

TEST_CASE("run reports the ledger of the library call on the same input") {
  mmv::test::scratch_dir dir("ledger");
  std::mt19937_64 rng(std::random_device{}());
  const auto seed = rng();
  CAPTURE(seed);
  rng.seed(seed);
  std::vector<mmv::word> x(777), f(777);
  std::string xs, fs;
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = static_cast<mmv::word>(rng() % 1000) - 500;
    f[i] = rng() % 9 == 0;
    xs += std::to_string(x[i]) + "\n";
    fs += std::to_string(f[i]) + " ";
  }
  mmv::test::write_text(dir / "x.txt", xs);
  mmv::test::write_text(dir / "f.txt", fs);
  for (int s : {2, 5, 16}) {
    CAPTURE(s);
    mmv::machine_config c;
    c.s = s;
    mmv::machine m(c);
    (void)mmv::sscr_segmented_scan(m, m.load(x), m.load(f));
    const auto r = run_tool({"run", "sscr", "--s", std::to_string(s), "--values", (dir / "x.txt").string(), "--flags",
                             (dir / "f.txt").string(), "--format", "json"});
    REQUIRE(r.code == 0);
    const auto& t = m.costs().totals();
    CHECK(field_int(r.out, "mmu_steps") == t.mmu.steps);
    CHECK(field_int(r.out, "vcu_steps") == t.vcu.steps);
    CHECK(field_int(r.out, "depth_steps") == m.costs().depth());
    CHECK(field_int(r.out, "mmu_multiply_adds") == t.mmu.multiply_adds);
    CHECK(field_int(r.out, "mmu_tile_products") == t.mmu.tile_products);
    CHECK(field_int(r.out, "vcu_work_element_ops") == t.vcu.work);
    CHECK(field_int(r.out, "words_read") == t.total().words_read);
    CHECK(field_int(r.out, "words_written") == t.total().words_written);
    CHECK(field_int(r.out, "segments") == 1 + std::count(f.begin() + 1, f.end(), 1));
  }
}

TEST_CASE("a result that fails verification exits with code 1") {
  // The unstable form divides by exp of the running sum of log a: by n = 1500 (float64) its
  // rounding error passes the tolerance, before anything overflows.
  const auto r = run_tool({"run", "decayed-scan-unstable", "--n", "1500", "--mode", "float64", "--mean-length", "32"});
  CHECK(r.code == 1);
  CHECK(r.out.find("verified   false") != std::string::npos);
  CHECK(r.err.find("failed verification") != std::string::npos);
  const auto stable = run_tool({"run", "decayed-scan-stable", "--n", "1500", "--mode", "float64", "--mean-length", "32"});
  CHECK(stable.code == 0);
}

TEST_CASE("a float overflow from finite inputs exits 2 naming the instruction and index") {
  // exp(-sum log a) overflows float32 on a long single segment: the unstable form breaks down.
  for (const std::string format : {"table", "json"}) {
    const auto r = run_tool({"run", "decayed-scan-unstable", "--n", "4096", "--mode", "float32", "--density", "0",
                             "--format", format});
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.rfind("mmvram: error: float overflow: exp (instruction ", 0) == 0);
    CHECK(r.err.find(") produced inf at index ") != std::string::npos);
  }
  const auto stable = run_tool({"run", "decayed-scan-stable", "--n", "4096", "--mode", "float32", "--density", "0"});
  CHECK(stable.code == 0);
}

TEST_CASE("run --dag writes a Graphviz graph and --trace lists every instruction") {
  mmv::test::scratch_dir dir("dag");
  const auto dot = (dir / "g.dot").string();
  const auto r = run_tool({"run", "scd", "--n", "40", "--s", "4", "--dag", dot, "--trace"});
  REQUIRE(r.code == 0);
  const auto text = mmv::test::read_text(dot);
  CHECK(text.rfind("digraph", 0) == 0);
  CHECK(text.find("MMU") != std::string::npos);
  CHECK(r.out.find("compress") != std::string::npos);
  CHECK(r.out.find("mmu ") != std::string::npos);
}

TEST_CASE("run verifies the matrix product on small matrices") {
  const auto seed = std::to_string(std::random_device{}() % 100000);
  CAPTURE(seed);
  for (const std::string n : {"1", "2", "3", "5"})
    for (const std::string s : {"2", "3", "16"}) {
      CAPTURE(n, s);
      const auto r = run_tool({"run", "matrix-product", "--n", n, "--s", s, "--seed", seed, "--signed", "--format", "json"});
      INFO(r.err);
      REQUIRE(r.code == 0);
      CHECK(json_field(r.out, "verified") == "true");
      CHECK(field_int(r.out, "output_length") == std::stoll(n) * std::stoll(n));
    }
}

TEST_CASE("run spmv on a BigBird matrix") {
  const auto r = run_tool({"run", "spmv", "--bigbird", "4,2", "--n", "64", "--s", "4", "--mode", "float64",
                           "--format", "json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(json_field(r.out, "input") == "bigbird");
  CHECK(json_field(r.out, "segments") == "64");  // one segment per row
  CHECK(json_field(r.out, "verified") == "true");
}
