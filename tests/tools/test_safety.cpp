// The tool fails safely: every failed write (stdout, --dag, --output, sweep --out) and every
// input too large for the machine exits 2 with one line, before allocating; bad bytes are shown
// escaped; --output writes the whole result at round-trip precision (text) or exactly (binary).
#include "catch.hpp"
#include "tool_checks.hpp"
#include "tool_process.hpp"

#include <sys/stat.h>

#include <cstring>
#include <map>
#include <vector>

using mmv::test::require_clean_error;
using mmv::test::run_tool;
using mmv::test::shell_quote;

namespace {

// Runs the tool with its standard output sent to /dev/full; returns the exit code and stderr.
// The rows of a CSV text as column -> cell ("..." cells unquoted, "" inside them read as ").
std::vector<std::map<std::string, std::string>> csv_rows(const std::string& text) {
  std::vector<std::vector<std::string>> lines(1, std::vector<std::string>(1));
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted && c == '"' && i + 1 < text.size() && text[i + 1] == '"') lines.back().back() += '"', ++i;
    else if (c == '"') quoted = !quoted;
    else if (!quoted && c == ',') lines.back().emplace_back();
    else if (!quoted && c == '\n') lines.emplace_back(1);
    else lines.back().back() += c;
  }
  std::vector<std::map<std::string, std::string>> rows;
  for (std::size_t k = 1; k < lines.size(); ++k) {
    if (lines[k].size() != lines[0].size()) continue;  // the empty line after the last newline
    rows.emplace_back();
    for (std::size_t j = 0; j < lines[0].size(); ++j) rows.back()[lines[0][j]] = lines[k][j];
  }
  return rows;
}

mmv::test::tool_result run_to_full(const std::string& args, const mmv::test::scratch_dir& dir) {
  const auto err = dir / "err.txt";
  const std::string cmd = "timeout 60 " + shell_quote(MMVRAM_TOOL) + " " + args + " >/dev/full 2>" + shell_quote(err.string());
  const int status = std::system(cmd.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, "", mmv::test::read_text(err)};
}

}  // namespace

TEST_CASE("a failed write exits 2 with one line") {
  mmv::test::scratch_dir dir("safety-writes");
  for (const std::string args : {"run sscr --n 16", "run sscr --n 16 --format json", "list", "help"}) {
    CAPTURE(args);
    const auto r = run_to_full(args, dir);
    CHECK(r.code == 2);
    CHECK(r.err == "mmvram: error: cannot write to the standard output: No space left on device\n");
  }
  require_clean_error({"run", "sscr", "--n", "16", "--dag", "/dev/full"}, "cannot write the DAG file '/dev/full'");
  require_clean_error({"run", "sscr", "--n", "16", "--output", "/dev/full"}, "cannot write the output file '/dev/full'");
  require_clean_error({"run", "sscr", "--n", "16", "--output", (dir / "no" / "x.txt").string()}, "cannot write the output file");
}

TEST_CASE("sweep --out must be a regular file") {
  mmv::test::scratch_dir dir("safety-sweep");
  require_clean_error({"sweep", "sscr", "--n", "16", "--out", "/dev/full"}, "is not a regular file");
  require_clean_error({"sweep", "sscr", "--n", "16", "--out", dir.path.string()}, "Is a directory");
  const auto fifo = (dir / "fifo").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  require_clean_error({"sweep", "sscr", "--n", "16", "--out", fifo}, "is not a regular file");
}

TEST_CASE("repeated options and empty values are errors") {
  require_clean_error({"run", "sscr", "--n", "16", "--n", "32"}, "option --n is given twice");
  require_clean_error({"run", "sscr", "--trace", "--trace"}, "option --trace is given twice");
  require_clean_error({"run", "sscr", "--values", ""}, "option --values needs a value (got an empty one)");
  require_clean_error({"run", "sscr", "--dag="}, "option --dag needs a value");
  require_clean_error({"sweep", "sscr", "--out", "x.csv", "--n", ""}, "option --n needs a value");
}

TEST_CASE("inputs beyond the machine's memory are refused before allocating") {
  mmv::test::scratch_dir dir("safety-memory");
  require_clean_error({"run", "sscr", "--n", "2^40"}, "out of memory: --n 1099511627776 needs about");
  require_clean_error({"run", "matrix-product", "--n", "5000"}, "out of memory: --n 5000 needs about");
  require_clean_error({"run", "elementwise-product", "--n", "2^36"}, "out of memory");
  require_clean_error({"run", "spmv", "--mode", "float64", "--bigbird", "1,1048576", "--n", "2^20"},
                      "out of memory: --bigbird with --n 1048576 needs about");
  // A 72-byte header declaring more entries than its bytes hold.
  const auto many = dir.put("many.mtx", "%%MatrixMarket matrix coordinate real general\n4 4 268435456\n1 1 1\n");
  require_clean_error({"run", "spmv", "--mode", "float64", "--matrix", many}, "declares 268435456 entries, more than its");
  if (!mmv::test::tool_has_asan) {  // under the 8 GiB cap: 2^29 row pointers and vector words are refused
    const auto wide = dir.put("wide.mtx", "%%MatrixMarket matrix coordinate real general\n268435456 268435456 1\n1 1 1\n");
    require_clean_error({"run", "spmv", "--mode", "float64", "--matrix", wide}, "out of memory: matrix file");
  }
  require_clean_error({"run", "sscr", "--values", "/dev/zero", "--flags", "/dev/zero"}, "is not a regular file");
}

TEST_CASE("integer inputs stay exact or are refused; float32 inputs stay in range") {
  mmv::test::scratch_dir dir("safety-exact");
  const auto v = dir.put("v.txt", "1\n");
  const auto big = dir.put("big.mtx", "%%MatrixMarket matrix coordinate integer general\n1 1 1\n1 1 9007199254740993\n");
  require_clean_error({"run", "spmv", "--bits", "64", "--matrix", big, "--vector", v}, "is an integer beyond 2^53");
  const auto ok = dir.put("ok.mtx", "%%MatrixMarket matrix coordinate integer general\n1 1 1\n1 1 9007199254740992\n");
  const auto r = run_tool({"run", "spmv", "--bits", "64", "--matrix", ok, "--vector", v, "--format", "json"});
  CHECK(r.code == 0);
  CHECK(r.out.find("\"9007199254740992\"") != std::string::npos);
  // Text vectors in integer mode are parsed as 64-bit integers.
  const auto x = dir.put("x.txt", "9007199254740993 1\n"), f = dir.put("f.txt", "1 1\n");
  const auto exact = run_tool({"run", "sscr", "--bits", "64", "--values", x, "--flags", f, "--format", "json"});
  CHECK(exact.out.find("\"9007199254740993\"") != std::string::npos);
  require_clean_error({"run", "sscr", "--mode", "float32", "--values", dir.put("r.txt", "1 -1e39"), "--flags", f},
                      "value -1e+39 at index 1 is outside the float32 range");
}

TEST_CASE("bad bytes in error messages are escaped") {
  mmv::test::scratch_dir dir("safety-bytes");
  const auto f = dir.put("f.txt", "1 0\n");
  const auto r = run_tool({"run", "sscr", "--values", dir.put("x.txt", std::string("1 2\x01\xff\n")), "--flags", f});
  CHECK(r.code == 2);
  CHECK(r.err.find("'2\\x01\\xff' is not an integer") != std::string::npos);
  CHECK(run_tool({"run", std::string("ss\x1b[2Jcr")}).err.find("'ss\\x1b[2Jcr'") != std::string::npos);
}

TEST_CASE("--output writes the whole result, text at round-trip precision or binary") {
  mmv::test::scratch_dir dir("safety-output");
  for (const std::string mode : {"float32", "float64", "integer"}) {
    CAPTURE(mode);
    const auto text = (dir / "y.txt").string();
    const auto binary = (dir / (mode == "integer" ? "y.i64" : mode == "float32" ? "y.f32" : "y.f64")).string();
    REQUIRE(run_tool({"run", "sscr", "--n", "3000", "--mode", mode, "--output", text}).code == 0);
    REQUIRE(run_tool({"run", "sscr", "--n", "3000", "--mode", mode, "--output", binary}).code == 0);
    std::istringstream lines(mmv::test::read_text(text));
    const std::string bytes = mmv::test::read_text(binary);
    std::size_t count = 0;
    for (std::string line; std::getline(lines, line); ++count) {
      double from_binary = 0;
      if (mode == "float32") {
        float e;
        std::memcpy(&e, bytes.data() + 4 * count, 4);
        from_binary = e;
        REQUIRE(std::strtof(line.c_str(), nullptr) == e);
      } else {
        std::int64_t e;
        std::memcpy(&e, bytes.data() + 8 * count, 8);
        if (mode == "float64") std::memcpy(&from_binary, &e, 8);
        REQUIRE((mode == "integer" ? std::to_string(e) == line : std::strtod(line.c_str(), nullptr) == from_binary));
      }
    }
    CHECK(count == 3000);
    CHECK(bytes.size() == 3000 * (mode == "float32" ? 4 : 8));
  }
  // A value the binary type cannot hold is refused before the file is written.
  require_clean_error({"run", "sscr", "--n", "100", "--max-value", "100", "--output", (dir / "y.u8").string()},
                      "does not fit .u8 exactly");
}

TEST_CASE("a float overflow writes no JSON, and a sweep row keeps its counts") {
  // The unstable decayed scan overflows exp(-sum log a) on one long float32 segment: the run
  // stops with exit 2 before any report, so no JSON can hold inf or nan.
  const auto r = run_tool({"run", "decayed-scan-unstable", "--mode", "float32", "--n", "4096", "--density", "0",
                           "--format", "json"}, "", 60);
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  mmv::test::scratch_dir dir("overflow");
  const auto csv = (dir / "u.csv").string();
  const auto s = run_tool({"sweep", "decayed-scan-unstable", "--mode", "float32", "--n", "2^8,2^12", "--density", "0",
                           "--out", csv}, "", 60);
  CHECK(s.code == 1);
  const auto rows = csv_rows(mmv::test::read_text(csv));
  REQUIRE(rows.size() == 2);
  for (const auto& row : rows) {
    INFO(row.at("n") << ": " << row.at("error"));
    const bool big = row.at("n") == "4096";
    CHECK(row.at("verified") == (big ? "false" : "true"));
    CHECK(row.at("error").rfind(big ? "float overflow: exp (instruction " : "", 0) == 0);
    CHECK(!row.at("steps").empty());  // the counts are kept
    CHECK(row.at("max_abs_error").empty() == big);
  }
}
