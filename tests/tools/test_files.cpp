// Inputs from files: text with comments and separators, and every binary element type,
// give the same run as the values themselves (checked on the seeds' example and on random
// data against reference.hpp).
#include "catch.hpp"
#include "tool_process.hpp"

#include "mmvram/harness/reference.hpp"

#include <cmath>
#include <cstring>
#include <random>

using mmv::test::json_field;
using mmv::test::run_tool;

namespace {

template <class E, class V>
std::string bytes_of(const std::vector<V>& values) {
  std::string b(values.size() * sizeof(E), '\0');
  for (std::size_t i = 0; i < values.size(); ++i) {
    const E e = static_cast<E>(values[i]);
    std::memcpy(b.data() + i * sizeof(E), &e, sizeof(E));
  }
  return b;
}

// The preview list of the JSON report, as numbers.
std::vector<double> preview_of(const std::string& json) {
  std::vector<double> v;
  const auto doc = nlohmann::json::parse(json, nullptr, false);
  if (!doc.is_object() || !doc.contains("output_preview")) return v;
  for (const auto& d : doc["output_preview"]) v.push_back(d.is_string() ? std::stod(d.get<std::string>()) : d.get<double>());
  return v;
}

}  // namespace

TEST_CASE("text files: the seeds' example through SCD and SSCR") {
  mmv::test::scratch_dir dir("text");
  mmv::test::write_text(dir / "x.txt", "# seed 001\n2, 2, 3, 3\n1 3\t1 2\n");
  mmv::test::write_text(dir / "f.txt", "1 0 1 0 0 1 0 0  # segment starts\n");
  const std::vector<std::string> files{"--values", (dir / "x.txt").string(), "--flags", (dir / "f.txt").string()};
  for (const std::string s : {"2", "3", "16"}) {
    auto args = std::vector<std::string>{"run", "scd", "--s", s, "--format", "json"};
    args.insert(args.end(), files.begin(), files.end());
    auto r = run_tool(args);
    REQUIRE(r.code == 0);
    CHECK(preview_of(r.out) == std::vector<double>{4, 7, 6});
    CHECK(json_field(r.out, "input") == "files");
    CHECK(json_field(r.out, "segments") == "3");
    args[1] = "sscr";
    r = run_tool(args);
    REQUIRE(r.code == 0);
    CHECK(preview_of(r.out) == std::vector<double>{2, 4, 3, 6, 7, 3, 4, 6});
  }
}

TEST_CASE("binary files of every element type") {
  mmv::test::scratch_dir dir("binary");
  std::mt19937_64 rng(std::random_device{}());
  const auto seed = rng();
  CAPTURE(seed);
  rng.seed(seed);
  std::vector<std::int64_t> x(12), f(12);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<std::int64_t>(rng() % 100), f[i] = rng() % 3 == 0;
  const auto want = mmv::reference::segmented_scan(x, f);
  const std::vector<double> want_d(want.begin(), want.end());
  mmv::test::write_text(dir / "f.u8", bytes_of<std::uint8_t>(f));
  mmv::test::write_text(dir / "f.i64", bytes_of<std::int64_t>(f));
  mmv::test::write_text(dir / "x.i32", bytes_of<std::int32_t>(x));
  mmv::test::write_text(dir / "x.i64", bytes_of<std::int64_t>(x));
  mmv::test::write_text(dir / "x.u8", bytes_of<std::uint8_t>(x));
  mmv::test::write_text(dir / "x.f32", bytes_of<float>(x));
  mmv::test::write_text(dir / "x.f64", bytes_of<double>(x));
  for (const std::string xf : {"x.i32", "x.i64", "x.u8", "x.f32", "x.f64"})
    for (const std::string ff : {"f.u8", "f.i64"}) {
      const bool floats = xf[2] == 'f';
      CAPTURE(xf, ff);
      const auto r = run_tool({"run", "sscr", "--s", "3", "--mode", floats ? "float64" : "integer", "--values",
                               (dir / xf).string(), "--flags", (dir / ff).string(), "--format", "json"});
      INFO(r.err);
      REQUIRE(r.code == 0);
      CHECK(json_field(r.out, "n") == "12");
      CHECK(preview_of(r.out) == want_d);
    }
}

TEST_CASE("decayed scans read a, b and flags from files") {
  mmv::test::scratch_dir dir("decayed");
  mmv::test::write_text(dir / "a.txt", "0.5 0.5 0.5 0.5 0.5 0.5");
  mmv::test::write_text(dir / "b.txt", "1 1 1 1 1 1");
  mmv::test::write_text(dir / "f.txt", "1 0 0 1 0 0");
  const auto r = run_tool({"run", "decayed-scan-stable", "--mode", "float64", "--s", "2", "--values",
                           (dir / "b.txt").string(), "--flags", (dir / "f.txt").string(), "--decays",
                           (dir / "a.txt").string(), "--format", "json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto got = preview_of(r.out);
  const std::vector<double> want{1, 1.5, 1.75, 1, 1.5, 1.75};
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) CHECK(std::fabs(got[i] - want[i]) < 1e-12);
}

TEST_CASE("spmv reads a Matrix Market file and its vector") {
  mmv::test::scratch_dir dir("mtx");
  // 3 x 4, row 1 empty, a duplicate entry in row 2 (summed): y = (1*1 + 2*4, 0, (3+4)*2 + 5*3).
  mmv::test::write_text(dir / "a.mtx",
                        "%%MatrixMarket matrix coordinate integer general\n% a comment\n3 4 5\n"
                        "1 1 1\n1 4 2\n3 2 3\n3 2 4\n3 3 5\n");
  mmv::test::write_text(dir / "v.txt", "1 2 3 4\n");
  for (const std::string mode : {"integer", "float64", "float32"}) {
    CAPTURE(mode);
    const auto r = run_tool({"run", "spmv", "--s", "2", "--mode", mode, "--matrix", (dir / "a.mtx").string(),
                             "--vector", (dir / "v.txt").string(), "--format", "json"});
    INFO(r.err);
    REQUIRE(r.code == 0);
    CHECK(preview_of(r.out) == std::vector<double>{9, 0, 29});
    CHECK(json_field(r.out, "n") == "5");
    CHECK(json_field(r.out, "segments") == "3");
  }
  // Without --vector the vector is random (seeded); the run still verifies.
  const auto r = run_tool({"run", "spmv", "--mode", "float64", "--matrix", (dir / "a.mtx").string()});
  CHECK(r.code == 0);
  // Bad files: malformed header, an index out of range, a vector of the wrong length.
  mmv::test::write_text(dir / "bad.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n");
  mmv::test::write_text(dir / "range.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1.0\n");
  mmv::test::write_text(dir / "short.txt", "1 2\n");
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"--matrix", (dir / "bad.mtx").string()},
           {"--matrix", (dir / "range.mtx").string()},
           {"--matrix", (dir / "a.mtx").string(), "--vector", (dir / "short.txt").string()},
           {"--matrix", (dir / "missing.mtx").string()}}) {
    auto full = std::vector<std::string>{"run", "spmv", "--mode", "float64"};
    full.insert(full.end(), args.begin(), args.end());
    const auto bad = run_tool(full);
    CAPTURE(args.back(), bad.err);
    CHECK(bad.code == 2);
    CHECK(std::count(bad.err.begin(), bad.err.end(), '\n') == 1);
  }
  // Integer runs refuse non-integer matrix values.
  mmv::test::write_text(dir / "real.mtx", "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 0.5\n");
  const auto real = run_tool({"run", "spmv", "--matrix", (dir / "real.mtx").string()});
  CHECK(real.code == 2);
  CHECK(real.err.find("not an integer") != std::string::npos);
}
