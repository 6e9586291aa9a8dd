// `mmvram sweep`: one CSV row per point with the fixed header; a second identical sweep adds
// nothing; a wider sweep appends only the new points; a torn last line is dropped and redone;
// a CSV with another header is refused.
#include "catch.hpp"
#include "tool_process.hpp"

#include <set>

using mmv::test::read_text;
using mmv::test::run_tool;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

std::vector<std::string> cells_of(const std::string& line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) cells.emplace_back();
    else cells.back() += c;
  }
  return cells;
}

// True when no two data rows share a key.
bool distinct(const std::multiset<std::string>& keys) { return std::set<std::string>(keys.begin(), keys.end()).size() == keys.size(); }

// The (algorithm, n, s, density) of every data row.
std::multiset<std::string> keys_of(const std::vector<std::string>& lines) {
  const auto header = cells_of(lines.at(0));
  const auto col = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
  };
  std::multiset<std::string> keys;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const auto c = cells_of(lines[i]);
    keys.insert(c.at(col("algorithm")) + "/" + c.at(col("n")) + "/" + c.at(col("s")) + "/" + c.at(col("density")));
  }
  return keys;
}

}  // namespace

TEST_CASE("sweep writes, resumes and extends a CSV") {
  mmv::test::scratch_dir dir("sweep");
  const auto csv = (dir / "s.csv").string();
  const std::vector<std::string> base{"sweep", "sscr", "matmul-scan", "--n", "2^4..2^6", "--s", "2,4",
                                      "--density", "0.1,0.5", "--out", csv, "--jobs", "2"};
  auto r = run_tool(base);
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.err.find("18/18") != std::string::npos);  // the progress bar reached the end
  auto lines = lines_of(read_text(csv));
  // sscr: 3 n x 2 s x 2 densities; matmul-scan has no flags: 3 n x 2 s.
  REQUIRE(lines.size() == 1 + 12 + 6);
  const auto header = cells_of(lines[0]);
  for (const std::string col : {"algorithm", "n", "s", "word_bits", "density", "verified", "steps", "mmu_steps",
                                "vcu_steps", "depth_steps", "vcu_work_element_ops", "mmu_multiply_adds",
                                "words_read", "wall_time_s", "predicted_steps"})
    CHECK(std::find(header.begin(), header.end(), col) != header.end());
  const auto verified = std::find(header.begin(), header.end(), "verified") - header.begin();
  for (std::size_t i = 1; i < lines.size(); ++i) CHECK(cells_of(lines[i]).at(verified) == "true");
  CHECK(distinct(keys_of(lines)));

  const std::string before = read_text(csv);
  r = run_tool(base);
  REQUIRE(r.code == 0);
  CHECK(read_text(csv) == before);
  CHECK(r.err.find("0 new row(s), 18 already present") != std::string::npos);

  auto wider = base;
  wider[4] = "2^4..2^7";
  r = run_tool(wider);
  REQUIRE(r.code == 0);
  lines = lines_of(read_text(csv));
  CHECK(lines.size() == 1 + 18 + 6);
  CHECK(read_text(csv).rfind(before, 0) == 0);  // appended, old rows untouched
  CHECK(keys_of(lines).count("sscr/128/4/0.5") == 1);

  // A torn last line (an interrupted write) is dropped and its point redone.
  std::string text = read_text(csv);
  text.resize(text.size() - 10);
  mmv::test::write_text(dir / "s.csv", text);
  r = run_tool(wider);
  REQUIRE(r.code == 0);
  lines = lines_of(read_text(csv));
  CHECK(lines.size() == 1 + 24);
  CHECK(keys_of(lines).size() == 24);
  CHECK(distinct(keys_of(lines)));
}

TEST_CASE("sweep refuses a CSV with another header and records failing points") {
  mmv::test::scratch_dir dir("sweep-bad");
  mmv::test::write_text(dir / "other.csv", "a,b,c\n1,2,3\n");
  auto r = run_tool({"sweep", "sscr", "--n", "16", "--out", (dir / "other.csv").string()});
  CHECK(r.code == 2);
  CHECK(r.err.find("different CSV header") != std::string::npos);

  // An 8-bit machine overflows on the larger point: its row records the error, exit code 1.
  const auto csv = (dir / "w.csv").string();
  r = run_tool({"sweep", "sscr", "--n", "8,4096", "--bits", "8", "--out", csv, "--quiet"});
  CHECK(r.code == 1);
  CHECK(r.err.empty());
  const auto text = read_text(csv);
  CHECK(text.find("word-width overflow") != std::string::npos);
  CHECK(lines_of(text).size() == 3);
}
