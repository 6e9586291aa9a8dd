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
  require_clean_error({"run", "sscr", "--format", "float16"}, "unknown number format");
  require_clean_error({"run", "sscr", "--report", "xml"}, "--report");
  require_clean_error({"run", "sscr", "--trace", "--report", "csv"}, "--trace");
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
}

TEST_CASE("a word-width overflow during a run exits 2 with one line") {
  // 4096 values of up to 100 sum past 2^7: an 8-bit machine cannot hold the speculative scan.
  require_clean_error({"run", "sscr", "--n", "4096", "--bits", "8", "--max-value", "100"}, "word-width overflow");
  require_clean_error({"run", "matmul-scan", "--n", "100", "--bits", "4", "--max-value", "7"}, "bit signed word");
}
