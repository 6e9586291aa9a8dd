// Every class of bad input ends with exit code 2 and exactly one line on stderr, before or
// instead of any report: bad options, out-of-range parameters, bad files, unknown names, and a
// word-width overflow during the run. Every run is bounded in time and memory, so that a
// regression into an endless loop fails instead of hanging.
#include "catch.hpp"
#include "tool_checks.hpp"
#include "tool_process.hpp"

#include <cstdint>
#include <cstring>
#include <limits>

using mmv::test::require_clean_error;
using mmv::test::run_tool;

namespace {

template <class E>
std::string bytes_of(const std::vector<E>& v) {
  std::string b(v.size() * sizeof(E), '\0');
  std::memcpy(b.data(), v.data(), b.size());
  return b;
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
  const std::vector<std::string> lanes{"run", "state-passing", "--mode", "float32"};
  const auto with = [&](std::vector<std::string> extra) {
    extra.insert(extra.begin(), lanes.begin(), lanes.end());
    return extra;
  };
  require_clean_error(with({"--heads", "0"}), "--heads must be in 1..65536");
  require_clean_error(with({"--rows", "-3"}), "--rows");
  require_clean_error(with({"--cols", "2^17"}), "--cols must be in 1..65536");
  require_clean_error(with({"--decay", "diagonal"}), "--decay must be per-row or per-head");
  require_clean_error(with({"--n", "2^20", "--heads", "64"}), "exceed the limit n H N V <= 2^24");
  require_clean_error(with({"--values", "x.txt"}), "random inputs only");
  require_clean_error({"run", "state-passing"}, "float mode only");
  require_clean_error({"run", "sscr", "--decay", "per-head"}, "--decay shapes the lanes of state-passing");
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

TEST_CASE("numbers past 2^62 and ranges up to 2^62 are refused or handled without overflow") {
  // A range up to 2^62 must not overflow int64 in its loop, nor grow its list until out of memory.
  require_clean_error({"sweep", "scd", "--n", "2^62..2^62:3", "--s", "1", "--out", "x.csv"}, "--s must be in 2..");
  require_clean_error({"sweep", "scd", "--n", "2^40..2^62:7", "--s", "1", "--out", "x.csv"}, "--s must be in 2..");
  require_clean_error({"run", "sscr", "--n", "2^63"}, "2^63 is too large");
  require_clean_error({"run", "sscr", "--n", "10^30"}, "10^30 is too large");
  require_clean_error({"run", "sscr", "--n", "99999999999999999999"}, "is too large");
  require_clean_error({"run", "sscr", "--n", "9223372036854775808"}, "is too large");
  require_clean_error({"run", "sscr", "--seed", "2^64"}, "--seed: 2^64 is too large");
  require_clean_error({"run", "sscr", "--max-value", "10^19"}, "--max-value: 10^19 is too large");
  require_clean_error({"instructions", "--m", "2^63"}, "--m: 2^63 is too large");
  require_clean_error({"sweep", "sscr", "--n", "2^4..2^70", "--out", "x.csv"}, "2^70 is too large");
  require_clean_error({"sweep", "sscr", "--n", "2^4..2^10:2^63", "--out", "x.csv"}, "is too large");
  // 1^k and 0^k with a huge k: no k multiplications (not 10^18 iterations of a loop).
  require_clean_error({"run", "sscr", "--s", "1^999999999999999999"}, "--s must be in 2..4096");
  require_clean_error({"run", "sscr", "--n", "0^999999999999999999"}, "--n must be at least 1");
  // Reals: an infinite quotient is refused (1/inf must not become --density 0 silently).
  require_clean_error({"run", "sscr", "--mean-length", "1e300/1e-300"}, "is not a finite number");
  require_clean_error({"run", "sscr", "--density", "1/0"}, "is not a finite number");
  require_clean_error({"run", "sscr", "--density", "1e999"}, "--density");
}

TEST_CASE("instructions caps --m at 2^40 and prints exact counts there") {
  require_clean_error({"instructions", "--m", "2^62"}, "--m must be in 1..2^40");
  require_clean_error({"instructions", "--m", "2^40", "--s", "4097"}, "--s must be in 2..4096");
  const auto r = run_tool({"instructions", "--m", "2^40", "--s", "4096"}, "", 60);
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK(r.out.find(" 4503599627370496 ") != std::string::npos);  // revspec work and MMU multiply-adds: m * s = 2^52
  CHECK(r.out.find(" -") == std::string::npos);                    // no overflowed (negative) count
  // Every count stands in its own column: the add row reads "1 m 0 2m m" with spaces between.
  CHECK(r.out.find(" 1     1099511627776                 0     2199023255552     1099511627776 ") !=
        std::string::npos);
}

TEST_CASE("binary float files with NaN or Inf exit 2 naming the file and the index") {
  mmv::test::scratch_dir dir("nonfinite");
  const auto nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const auto f = dir.put("f.txt", "1 0 0 1\n"), a = dir.put("a.txt", "0.5 0.5 0.5 0.5\n"), b = dir.put("b.txt", "1 2 3 4\n");
  const auto b_nan = dir.put("b.f64", bytes_of<double>({1, 2, nan, 4}));
  const auto b_inf = dir.put("b.f32", bytes_of<float>({1, std::numeric_limits<float>::infinity(), 3, 4}));
  const auto a_inf = dir.put("a.f64", bytes_of<double>({0.5, 0.5, 0.5, -inf}));
  const std::vector<std::string> run{"run", "decayed-scan-stable", "--mode", "float64"};
  const auto with = [&](const std::string& values, const std::string& decays) {
    auto args = run;
    for (const auto& x : {"--values", values.c_str(), "--flags", f.c_str(), "--decays", decays.c_str()}) args.push_back(x);
    return args;
  };
  require_clean_error(with(b_nan, a), "values file '" + b_nan + "': element 2 is not finite (nan)");
  require_clean_error(with(b_inf, a), "values file '" + b_inf + "': element 1 is not finite (inf)");
  require_clean_error(with(b, a_inf), "decays file '" + a_inf + "': element 3 is not finite (-inf)");
  const auto v_nan = dir.put("v.f64", bytes_of<double>({nan}));
  const auto mtx = dir.put("a.mtx", "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 2.0\n");
  require_clean_error({"run", "spmv", "--mode", "float64", "--matrix", mtx, "--vector", v_nan}, "element 0 is not finite");
  // The same finite values in binary run.
  CHECK(run_tool(with(dir.put("ok.f64", bytes_of<double>({1, 2, 3, 4})), a)).code == 0);
}

TEST_CASE("decays outside (0, 1] exit 2 with the index") {
  mmv::test::scratch_dir dir("decays");
  const auto b = dir.put("b.txt", "1 2 3 4\n"), f = dir.put("f.txt", "1 0 0 1\n");
  for (const std::string algo : {"decayed-scan-stable", "decayed-scan-unstable"})
    for (const auto& [decays, index] : std::vector<std::pair<std::string, std::string>>{
             {"0.5 0 0.5 0.5", "1"}, {"0.5 0.5 1.5 0.5", "2"}, {"0.5 0.5 0.5 -0.25", "3"}, {"1.0000001 1 1 1", "0"}}) {
      CAPTURE(algo, decays);
      require_clean_error({"run", algo, "--mode", "float64", "--values", b, "--flags", f, "--decays",
                           dir.put("a.txt", decays)},
                          "at index " + index + " is not in (0, 1]");
    }
  // a = 1 is allowed: the decayed scan is then the plain segmented scan.
  const auto ones = run_tool({"run", "decayed-scan-stable", "--mode", "float64", "--values", b, "--flags", f,
                              "--decays", dir.put("ones.txt", "1 1 1 1")});
  CHECK(ones.code == 0);
}

TEST_CASE("--bigbird fields beyond the number of blocks exit 2") {
  require_clean_error({"run", "spmv", "--mode", "float64", "--bigbird", "4,2,2^40"}, "WINDOW = 1099511627776 exceeds");
  require_clean_error({"run", "spmv", "--mode", "float64", "--bigbird", "4,2^33"}, "RANDOM = 8589934592 exceeds");
  require_clean_error({"run", "spmv", "--mode", "float64", "--bigbird", "4,2,1,2^32"}, "GLOBAL = 4294967296 exceeds");
  require_clean_error({"run", "spmv", "--mode", "float64", "--bigbird", "4,17", "--n", "64"},
                      "RANDOM = 17 exceeds the 16 block(s)");
  CHECK(run_tool({"run", "spmv", "--mode", "float64", "--bigbird", "4,16,16,16", "--n", "64"}, "", 60).code == 0);
}

TEST_CASE("matrix-product refuses n with n^3 > 2^40 up front") {
  require_clean_error({"run", "matrix-product", "--n", "2^32"}, "the limit is n^3 <= 2^40");
  require_clean_error({"run", "matrix-product", "--n", "10322"}, "n <= 10321");
}

TEST_CASE("Matrix Market headers with huge sides exit 2 with a clear message") {
  mmv::test::scratch_dir dir("mtx-huge");
  for (const std::string size : {"1000000000000 3 0", "3 1000000000000 0", "268435457 1 0"}) {
    CAPTURE(size);
    const auto m = dir.put("m.mtx", "%%MatrixMarket matrix coordinate real general\n% c\n\n" + size + "\n");
    require_clean_error({"run", "spmv", "--mode", "float64", "--matrix", m}, "at most 2^28 rows and 2^28 columns");
  }
}

TEST_CASE("options the run would ignore exit 2 and say why") {
  mmv::test::scratch_dir dir("ignored");
  const auto x = dir.put("x.txt", "1 2 3 4\n"), f = dir.put("f.txt", "1 0 1 0\n");
  const std::vector<std::vector<std::string>> random_options{
      {"--n", "8"}, {"--density", "0.1"}, {"--mean-length", "4"}, {"--seed", "3"}, {"--max-value", "5"}, {"--signed"}};
  for (const auto& option : random_options) {
    CAPTURE(option.front());
    auto args = std::vector<std::string>{"run", "sscr", "--values", x, "--flags", f};
    args.insert(args.end(), option.begin(), option.end());
    require_clean_error(args, option.front() + " shapes random inputs; it does not apply to input files");
    args = {"run", "matrix-product", "--values", x, "--values2", x};
    args.insert(args.end(), option.begin(), option.end());
    require_clean_error(args, "does not apply to input files");
  }
  // spmv draws its vector from --seed, --max-value and --signed when --vector is absent.
  const auto mtx = dir.put("a.mtx", "%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 1 1\n2 2 3\n");
  CHECK(run_tool({"run", "spmv", "--matrix", mtx, "--seed", "5", "--max-value", "9", "--signed"}).code == 0);
  require_clean_error({"run", "spmv", "--matrix", mtx, "--vector", dir.put("v.txt", "1 2"), "--seed", "5"},
                      "--seed shapes random inputs");
  require_clean_error({"run", "spmv", "--matrix", mtx, "--n", "8"}, "--n shapes random inputs");
  require_clean_error({"run", "spmv", "--matrix", mtx, "--density", "0.5"}, "--density shapes random inputs");
  // Segment density for inputs without segments, or for a BigBird matrix.
  for (const std::string algo : {"matmul-scan", "hillis-steele-scan", "brent-kung-scan", "elementwise-product",
                                 "matrix-product"})
    for (const auto& [option, value] : std::vector<std::pair<std::string, std::string>>{{"--density", "0.5"},
                                                                                           {"--mean-length", "2"}}) {
      CAPTURE(algo, option);
      require_clean_error({"run", algo, "--n", "8", option, value}, "but " + algo + " has no segments");
    }
  require_clean_error({"run", "spmv", "--mode", "float64", "--bigbird", "4,2", "--n", "64", "--density", "0.1"},
                      "does not apply to --bigbird");
  // --max-value bounds integers only.
  require_clean_error({"run", "sscr", "--mode", "float64", "--max-value", "5"}, "--max-value bounds random integers");
  CHECK(run_tool({"run", "sscr", "--n", "64", "--max-value", "5", "--signed", "--mean-length", "4"}).code == 0);
}

TEST_CASE("the hint after a word-width overflow names the B the input needs and what overflowed") {
  // All values 0: only the addresses overflow 8 bits; the down-sweep's slot addresses reach
  // 4096 - 16 = 4080, which needs 13 bits.
  const auto index = run_tool({"run", "sscr", "--n", "4096", "--bits", "8", "--max-value", "0"});
  INFO(index.err);
  CHECK(index.code == 2);
  CHECK(index.err.find("(this input needs --bits 13 or more: the indices/addresses iota generates grow with n)") !=
        std::string::npos);
  CHECK(index.err.find("--max-value") == std::string::npos);
  // Data values: 100 values of at most 30000 sum to more than 2^15; the hint offers smaller values.
  const auto data = run_tool({"run", "matmul-scan", "--n", "100", "--bits", "16", "--max-value", "30000"});
  INFO(data.err);
  CHECK(data.code == 2);
  const auto at = data.err.find("this input needs --bits ");
  REQUIRE(at != std::string::npos);
  const int needed = std::stoi(data.err.substr(at + 24));
  CHECK(needed > 16);
  CHECK(run_tool({"run", "matmul-scan", "--n", "100", "--bits", std::to_string(needed), "--max-value", "30000"}).code == 0);
  CHECK(data.err.find("--max-value") != std::string::npos);
  // Float runs hold indices in words too; their hint names what overflowed.
  const auto real = run_tool({"run", "sscr", "--mode", "float32", "--n", "4096", "--bits", "8"});
  INFO(real.err);
  CHECK(real.code == 2);
  CHECK(real.err.find("need more than 8 bits: raise --bits") != std::string::npos);
}

TEST_CASE("every command's parser takes exactly the options its help lists") {
  // walk() compares a parser's options with the table `mmvram help` prints before it reads the
  // arguments: a difference would be reported instead of the unknown option.
  const auto help = run_tool({"help"});
  REQUIRE(help.code == 0);
  for (const std::string command : {"list", "instructions", "run", "sweep", "calibrate", "predict", "closed-forms"}) {
    CAPTURE(command);
    CHECK(help.out.find("\n  " + command) != std::string::npos);
    const auto r = run_tool({command, "--no-such-option"});
    CHECK(r.code == 2);
    CHECK(r.err.find("unknown option --no-such-option") != std::string::npos);
  }
  for (const std::string option : {"--min-bits", "--bigbird", "--keep-failed", "--back-to-back", "--refit", "--m"})
    CHECK(help.out.find("  " + option + " ") != std::string::npos);
}
