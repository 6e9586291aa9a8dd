// `mmvram sweep`: one CSV row per point with the fixed header; a second identical sweep adds
// nothing; a wider sweep appends only the new points; a torn last line is dropped and redone;
// a CSV with another header is refused; failed rows are run again (or kept with --keep-failed)
// and set the exit code either way; ranges up to 2^62 stop without overflow; a CSV locked by
// another sweep is refused; a rewrite keeps one row per key, symbolic links and permissions.
#include "catch.hpp"
#include "tool_process.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

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

namespace {

std::size_t column(const std::vector<std::string>& lines, const std::string& name) {
  const auto header = cells_of(lines.at(0));
  return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
}

}  // namespace

TEST_CASE("sweep runs failed points again and their failures set the exit code") {
  mmv::test::scratch_dir dir("sweep-retry");
  const auto csv = (dir / "w.csv").string();
  // An 8-bit machine overflows at n = 4096 (an error row) but not at n = 8.
  const std::vector<std::string> base{"sweep", "sscr", "--n", "8,4096", "--bits", "8", "--out", csv};
  auto r = run_tool(base);
  REQUIRE(r.code == 1);
  const std::string first = read_text(csv);
  REQUIRE(lines_of(first).size() == 3);

  // A rerun does not take the failed row as done: it runs the point again (failing again), replaces
  // its row and exits 1; the passed row stays as it was.
  r = run_tool(base);
  INFO(r.err);
  CHECK(r.code == 1);
  CHECK(r.err.find("1 new row(s), 1 already present, 1 failed") != std::string::npos);
  CHECK(r.err.find("1 failed point(s) re-run") != std::string::npos);
  auto lines = lines_of(read_text(csv));
  CHECK(lines.size() == 3);
  CHECK(distinct(keys_of(lines)));
  const auto verified = column(lines, "verified");
  for (const auto& old : lines_of(first))
    if (cells_of(old).at(verified) == "true") CHECK(std::count(lines.begin(), lines.end(), old) == 1);

  // --keep-failed: the failed row stays, nothing runs, and the failure still gives exit code 1.
  const std::string before = read_text(csv);
  auto keep = base;
  keep.push_back("--keep-failed");
  r = run_tool(keep);
  CHECK(r.code == 1);
  CHECK(r.err.find("0 new row(s), 2 already present, 1 failed") != std::string::npos);
  CHECK(r.err.find("1 failed row(s) kept") != std::string::npos);
  CHECK(read_text(csv) == before);
}

TEST_CASE("sweep replaces a row that did not verify by a fresh run of its point") {
  mmv::test::scratch_dir dir("sweep-unverified");
  const auto csv = (dir / "u.csv").string();
  const std::vector<std::string> base{"sweep", "scd", "--n", "2^4..2^6", "--s", "2", "--out", csv, "--quiet"};
  REQUIRE(run_tool(base).code == 0);
  auto lines = lines_of(read_text(csv));
  REQUIRE(lines.size() == 4);
  // Mark the n = 32 row as failed verification, as an older or interrupted run might have left it.
  const auto verified = column(lines, "verified"), n_at = column(lines, "n");
  std::string text = lines[0] + "\n";
  for (std::size_t i = 1; i < lines.size(); ++i) {
    auto cells = cells_of(lines[i]);
    if (cells.at(n_at) == "32") {
      const auto at = lines[i].find(",true,");
      REQUIRE(cells.at(verified) == "true");
      REQUIRE(at != std::string::npos);
      lines[i].replace(at, 6, ",false,");
    }
    text += lines[i] + "\n";
  }
  mmv::test::write_text(dir / "u.csv", text);
  const auto r = run_tool(base);
  INFO(r.err);
  CHECK(r.code == 0);
  lines = lines_of(read_text(csv));
  CHECK(lines.size() == 4);
  CHECK(distinct(keys_of(lines)));
  for (std::size_t i = 1; i < lines.size(); ++i) CHECK(cells_of(lines[i]).at(verified) == "true");
}

TEST_CASE("sweep ranges that end near 2^62 stop without overflow") {
  mmv::test::scratch_dir dir("sweep-huge");
  const auto csv = (dir / "h.csv").string();
  // 2^60, 3*2^60; the next factor would pass 2^62 (and overflow int64 at 9*2^60 + ...). Each
  // point is far too large to run: its row records the out-of-memory error.
  const auto r = run_tool({"sweep", "scd", "--n", "2^60..2^62:3", "--s", "2", "--out", csv, "--quiet"}, "", 120);
  INFO(r.err);
  CHECK(r.code == 1);
  const auto lines = lines_of(read_text(csv));
  REQUIRE(lines.size() == 3);
  const auto keys = keys_of(lines);
  CHECK(keys.count("scd/1152921504606846976/2/0.05") == 1);
  CHECK(keys.count("scd/3458764513820540928/2/0.05") == 1);
  for (std::size_t i = 1; i < lines.size(); ++i) CHECK(lines[i].find("out of memory") != std::string::npos);
}

TEST_CASE("sweep refuses a CSV another sweep holds, and a file that is not a sweep's CSV") {
  mmv::test::scratch_dir dir("sweep-lock");
  const auto csv = (dir / "l.csv").string();
  REQUIRE(run_tool({"sweep", "scd", "--n", "16", "--out", csv, "--quiet"}).code == 0);
  const std::string before = read_text(csv);
  // Hold the lock a running sweep holds: a second sweep must not write the file.
  const int fd = ::open(csv.c_str(), O_RDWR);
  REQUIRE(fd >= 0);
  REQUIRE(::flock(fd, LOCK_EX) == 0);
  auto r = run_tool({"sweep", "scd", "--n", "16,32", "--out", csv, "--quiet"}, "", 60);
  ::close(fd);
  INFO(r.err);
  CHECK(r.code == 2);
  CHECK(r.err.find("is being written by another mmvram sweep") != std::string::npos);
  CHECK(read_text(csv) == before);
  // Released: the same sweep runs.
  CHECK(run_tool({"sweep", "scd", "--n", "16,32", "--out", csv, "--quiet"}).code == 0);

  // One line without a newline that is not the start of the header: refused, file untouched.
  mmv::test::write_text(dir / "notes.txt", "precious notes");
  r = run_tool({"sweep", "scd", "--n", "16", "--out", (dir / "notes.txt").string(), "--quiet"});
  CHECK(r.code == 2);
  CHECK(r.err.find("different CSV header") != std::string::npos);
  CHECK(read_text(dir / "notes.txt") == "precious notes");
  // A torn header (the start of the header, no newline) is an interrupted first write: redone.
  mmv::test::write_text(dir / "torn.csv", before.substr(0, 20));
  CHECK(run_tool({"sweep", "scd", "--n", "16", "--out", (dir / "torn.csv").string(), "--quiet"}).code == 0);
  const auto torn = lines_of(read_text(dir / "torn.csv"));
  CHECK(torn.size() == 2);
  CHECK(torn.at(0) == lines_of(before).at(0));
}

TEST_CASE("sweep rewrites keep one row per key, symbolic links and permissions") {
  mmv::test::scratch_dir dir("sweep-rewrite");
  const auto csv = (dir / "r.csv").string();
  REQUIRE(run_tool({"sweep", "scd", "--n", "16", "--out", csv, "--quiet"}).code == 0);
  auto lines = lines_of(read_text(csv));
  REQUIRE(lines.size() == 2);
  // A stale failed row of the same key as a passed one (an older version could leave both).
  std::string failed = lines[1];
  const auto at = failed.find(",true,");
  REQUIRE(at != std::string::npos);
  failed.replace(at, 6, ",false,");
  mmv::test::write_text(dir / "r.csv", lines[0] + "\n" + failed + "\n" + lines[1] + "\n");
  REQUIRE(::chmod(csv.c_str(), 0640) == 0);
  const auto link = (dir / "link.csv").string();
  std::filesystem::create_symlink(csv, link);

  const auto r = run_tool({"sweep", "scd", "--n", "16", "--out", link});
  INFO(r.err);
  CHECK(r.code == 0);  // the point passed; its stale failed row is dropped
  CHECK(lines_of(read_text(csv)) == std::vector<std::string>{lines[0], lines[1]});
  CHECK(std::filesystem::is_symlink(link));
  struct stat st{};
  REQUIRE(::stat(csv.c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0640);
  // No temporary file is left beside it.
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path)) ++entries;
  CHECK(entries == 2);
}
