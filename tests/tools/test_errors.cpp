// Every class of bad input ends with exit code 2 and exactly one line on stderr, before or
// instead of any report: bad options, out-of-range parameters, bad files, unknown names, and a
// word-width overflow during the run.
#include "catch.hpp"
#include "tool_process.hpp"

using mmv::test::run_tool;

namespace {

void require_clean_error(const std::vector<std::string>& args, const std::string& fragment) {
  const auto r = run_tool(args);
  INFO("stderr: " << r.err << "\nstdout: " << r.out);
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK(r.err.rfind("mmvram: error: ", 0) == 0);
  CHECK(r.err.find(fragment) != std::string::npos);
}

}  // namespace

TEST_CASE("bad command lines exit 2 with one line") {
  require_clean_error({}, "missing command");
  require_clean_error({"frobnicate"}, "unknown command");
  require_clean_error({"run"}, "needs an algorithm");
  require_clean_error({"run", "no-such-algorithm"}, "unknown algorithm 'no-such-algorithm'");
  require_clean_error({"run", "sscr", "--bogus", "1"}, "unknown option --bogus");
  require_clean_error({"run", "sscr", "--n"}, "needs a value");
  require_clean_error({"run", "sscr", "--n", "ten"}, "--n");
  require_clean_error({"run", "sscr", "--mode", "float16"}, "--mode: unknown number format");
  require_clean_error({"run", "sscr", "--format", "xml"}, "--format must be table, json or csv");
  require_clean_error({"run", "sscr", "--trace", "--format", "csv"}, "--trace");
  require_clean_error({"run", "sscr", "scd"}, "one algorithm");
  require_clean_error({"sweep", "sscr"}, "--out");
  require_clean_error({"sweep", "--out", "x.csv"}, "algorithm");
}

TEST_CASE("out-of-range parameters exit 2 with one line") {
  require_clean_error({"run", "sscr", "--s", "1"}, "--s must be in 2..");
  require_clean_error({"run", "sscr", "--bits", "1"}, "--bits must be in 2..64");
  require_clean_error({"run", "sscr", "--bits", "65"}, "--bits must be in 2..64");
  require_clean_error({"run", "sscr", "--n", "0"}, "--n must be at least 1");
  require_clean_error({"run", "sscr", "--density", "1.5"}, "--density must be in [0, 1]");
  require_clean_error({"run", "sscr", "--density", "-0.1"}, "--density must be in [0, 1]");
  require_clean_error({"run", "sscr", "--mean-length", "0.5"}, "--mean-length");
  require_clean_error({"sweep", "sscr", "--s", "1,4", "--out", "x.csv"}, "--s must be in 2..");
  require_clean_error({"sweep", "sscr", "--density", "0.1,2", "--out", "x.csv"}, "--density");
  require_clean_error({"run", "decayed-scan-stable"}, "float mode only");
  require_clean_error({"run", "sscr", "--n", "2^62"}, "out of memory");
  require_clean_error({"run", "sscr", "--n", "2^70"}, "too large");
  require_clean_error({"run", "sscr", "--n", "2^10..2^12"}, "expected a count");
  require_clean_error({"sweep", "sscr", "--n", "2^12..2^10", "--out", "x.csv"}, "bad range");
  require_clean_error({"sweep", "sscr", "--jobs", "0", "--out", "x.csv"}, "--jobs must be in 1..");
  require_clean_error({"sweep", "no-such-algorithm", "--out", "x.csv"}, "unknown algorithm");
  require_clean_error({"sweep", "decayed-scan-stable", "--out", "x.csv"}, "does not run in integer mode");
  require_clean_error({"run", "sscr", "--density", "0.1", "--mean-length", "4"}, "only one of");
  require_clean_error({"list", "--format", "csv"}, "table or json");
}

TEST_CASE("bad input files exit 2 with one line") {
  mmv::test::scratch_dir dir("errors");
  const auto file = [&](const std::string& name, const std::string& text) {
    mmv::test::write_text(dir / name, text);
    return (dir / name).string();
  };
  const auto x = file("x.txt", "1 2 3 4\n");
  require_clean_error({"run", "sscr", "--values", (dir / "missing.txt").string(), "--flags", x}, "cannot open");
  require_clean_error({"run", "sscr", "--values", x}, "--flags");
  require_clean_error({"run", "sscr", "--values", x, "--flags", file("f2.txt", "1 0 2 0")}, "is not 0 or 1");
  require_clean_error({"run", "sscr", "--values", x, "--flags", file("f3.txt", "1 0 0")}, "has 3 values");
  require_clean_error({"run", "sscr", "--values", file("bad.txt", "1 2 x 4"), "--flags", x}, "is not an integer");
  require_clean_error({"run", "sscr", "--values", file("real.txt", "1 2.5"), "--flags", x}, "is not an integer");
  require_clean_error({"run", "sscr", "--values", file("empty.txt", "# nothing\n"), "--flags", x}, "holds no values");
  require_clean_error({"run", "sscr", "--values", file("odd.i32", "abcde"), "--flags", x}, "whole number");
  require_clean_error({"run", "sscr", "--values", file("v.f64", std::string(8, '\0')), "--flags", x},
                      "holds floats");
  require_clean_error({"run", "sscr", "--values", x, "--flags", x, "--values2", x}, "does not read --values2");
  require_clean_error({"run", "matmul-scan", "--values", x, "--flags", x}, "does not read --flags");
  require_clean_error({"run", "elementwise-product", "--values2", x}, "--values2 needs --values");
  require_clean_error({"run", "elementwise-product", "--values", x}, "--values2");
  require_clean_error({"run", "spmv", "--vector", x}, "--vector needs --matrix");
  const auto f = file("f.txt", "1 0 1 0\n");
  require_clean_error({"run", "sscr", "--values", x, "--flags", f, "--dag", (dir / "no" / "g.dot").string()},
                      "cannot write the DAG file");
}

TEST_CASE("a word-width overflow during a run exits 2 with one line") {
  // 4096 values of up to 100 sum past 2^7: an 8-bit machine cannot hold the speculative scan.
  require_clean_error({"run", "sscr", "--n", "4096", "--bits", "8", "--max-value", "100"}, "word-width overflow");
  require_clean_error({"run", "matmul-scan", "--n", "100", "--bits", "4", "--max-value", "7"}, "bit signed word");
}
