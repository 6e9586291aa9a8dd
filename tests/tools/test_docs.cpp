// The tool output shown in the docs is the tool's output: every `<!-- mmvram: ARGS -->` block
// of every page under docs/ is re-run and compared line by line (only the wall time's value may
// differ), and no page shows tool output without such a marker; README.md's example is the
// tool's output too (its first lines). Also: docs/tool.md documents
// every CSV column, the walkthrough's results are the seeds' published answers, and every result
// table generated from experiments/results (tools/scripts/results_tables.py) is what its JSON gives.
#include "catch.hpp"
#include "tool_process.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <regex>

using mmv::test::read_text;
using mmv::test::run_tool;

namespace {

const std::string source_dir = MMVRAM_SOURCE_DIR;

struct doc_block {
  std::string args, body;
};

// Every markdown page under docs/, as a path relative to docs/.
std::vector<std::string> pages() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(source_dir + "/docs"))
    if (e.path().extension() == ".md")
      out.push_back(std::filesystem::relative(e.path(), source_dir + "/docs").string());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<doc_block> blocks_of(const std::string& page) {
  std::vector<doc_block> blocks;
  const std::string text = read_text(source_dir + "/docs/" + page);
  const std::regex marker("<!-- mmvram: (.*?) -->\n```text\n");
  for (std::sregex_iterator it(text.begin(), text.end(), marker), end; it != end; ++it) {
    const auto start = static_cast<std::size_t>(it->position() + it->length());
    const auto stop = text.find("```", start);
    blocks.push_back({(*it)[1].str(), text.substr(start, stop - start)});
  }
  return blocks;
}

std::vector<std::string> split_args(const std::string& args) {
  std::vector<std::string> out;
  std::istringstream in(args);
  for (std::string a; in >> a;) out.push_back(a);
  return out;
}

// Lines with the wall time's value blanked (it is the only non-deterministic output): the
// table's "  wall time: ..." line and the JSON's "wall_time_s" field.
std::vector<std::string> normalized_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    if (l.rfind("  wall time: ", 0) == 0) l = "  wall time: <t>";
    if (l.rfind("  \"wall_time_s\": ", 0) == 0) l = "  \"wall_time_s\": <t>";
    lines.push_back(l);
  }
  return lines;
}

void check_page(const std::string& page, std::size_t at_least) {
  const auto blocks = blocks_of(page);
  CHECK(blocks.size() >= at_least);
  for (const auto& b : blocks) {
    INFO(page << ": mmvram " << b.args << "  (regenerate with experiments/update_docs.py)");
    const auto r = run_tool(split_args(b.args), source_dir);
    INFO(r.err);
    CHECK((r.code == 0 || r.code == 1));
    const auto want = normalized_lines(b.body), got = normalized_lines(r.out);
    CHECK(got.size() == want.size());
    for (std::size_t i = 0; i < std::min(got.size(), want.size()); ++i) {
      INFO("line " << i + 1);
      CHECK(got[i] == want[i]);
    }
  }
}

}  // namespace

TEST_CASE("docs/walkthrough.md shows the tool's real output") { check_page("walkthrough.md", 4); }

TEST_CASE("docs/tool.md shows the tool's real output") { check_page("tool.md", 3); }

TEST_CASE("every other page's tool output is the tool's real output") {
  for (const auto& page : pages())
    if (page != "walkthrough.md" && page != "tool.md") check_page(page, 0);
}

// README.md's example is a shell session: `$ build/cpu/tools/mmvram ARGS`, then the output's first
// lines, cut by a last line `  ...`. Those lines are the tool's first lines, in order.
TEST_CASE("README.md's example shows the tool's real output") {
  const std::string text = read_text(source_dir + "/README.md");
  const std::regex command("\n[$] build/cpu/tools/mmvram ([^\n]*)\n");
  std::smatch m;
  REQUIRE(std::regex_search(text, m, command));
  const auto start = static_cast<std::size_t>(m.position() + m.length());
  const auto stop = text.find("```", start);
  REQUIRE(stop != std::string::npos);
  auto want = normalized_lines(text.substr(start, stop - start));
  const bool cut = !want.empty() && want.back() == "  ...";
  if (cut) want.pop_back();
  CHECK(want.size() >= 5);
  INFO("README.md: mmvram " << m[1].str());
  const auto r = run_tool(split_args(m[1].str()), source_dir);
  INFO(r.err);
  CHECK(r.code == 0);
  const auto got = normalized_lines(r.out);
  if (cut) CHECK(got.size() > want.size()); else CHECK(got.size() == want.size());
  for (std::size_t i = 0; i < std::min(got.size(), want.size()); ++i) {
    INFO("line " << i + 1);
    CHECK(got[i] == want[i]);
  }
}

TEST_CASE("no page shows tool output without a <!-- mmvram: --> marker") {
  // The first lines of the tool's outputs: a trace, a table report, a JSON report, `list`.
  const std::regex unmarked("(^|\n)(?!<!-- mmvram: )[^\n]*\n```[a-z]*\n(#   unit|algorithm  |\\{\n  \"schema\": \"mmvram-run)");
  for (const auto& page : pages()) {
    CAPTURE(page);
    const std::string text = read_text(source_dir + "/docs/" + page);
    CHECK_FALSE(std::regex_search(text, unmarked));
  }
}

TEST_CASE("the walkthrough's runs give the seeds' published answers") {
  const std::string x = "experiments/inputs/seed001_x.txt", f = "experiments/inputs/seed001_f.txt";
  auto r = run_tool({"run", "scd", "--s", "4", "--values", x, "--flags", f}, source_dir);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("output     [4 7 6] (3 values)") != std::string::npos);
  r = run_tool({"run", "sscr", "--s", "2", "--values", x, "--flags", f}, source_dir);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("output     [2 4 3 6 7 3 4 6] (8 values)") != std::string::npos);
  for (const std::string algo : {"schwartz-segmented-scan", "block-sscr", "sscr"}) {
    r = run_tool({"run", algo, "--s", "4", "--values", "experiments/inputs/seed000_a.txt", "--flags",
                  "experiments/inputs/seed000_f.txt"},
                 source_dir);
    REQUIRE(r.code == 0);
    CHECK(r.out.find("output     [3 4 7 7 11 1 7 3] (8 values)") != std::string::npos);
  }
}

TEST_CASE("docs/tool.md documents every CSV column") {
  const std::string doc = read_text(source_dir + "/docs/tool.md");
  const auto r = run_tool({"run", "matmul-scan", "--n", "4", "--format", "csv"});
  REQUIRE(r.code == 0);
  std::istringstream header(r.out.substr(0, r.out.find('\n')));
  int columns = 0;
  for (std::string col; std::getline(header, col, ',');) {
    CAPTURE(col);
    CHECK(doc.find("| `" + col + "` |") != std::string::npos);
    ++columns;
  }
  CHECK(columns >= 30);
}

TEST_CASE("docs/README.md links every page of docs/ and docs/algorithms/") {
  const std::string index = read_text(source_dir + "/docs/README.md");
  for (const auto& dir : {std::string("/docs"), std::string("/docs/algorithms")})
    for (const auto& entry : std::filesystem::directory_iterator(source_dir + dir)) {
      if (entry.path().extension() != ".md" || entry.path().filename() == "README.md") continue;
      const std::string link = (dir == "/docs" ? "" : "algorithms/") + entry.path().filename().string();
      CAPTURE(link);
      CHECK(index.find("](" + link + ")") != std::string::npos);
    }
}

// A GPU result belongs to a commit (docs/gpu_testing.md): every stored suite record names a
// commit of this repository, and its verdict follows from its suites; a record naming a commit
// that is not here is refused.
TEST_CASE("every GPU suite record names a commit of this repository and a verdict its suites give") {
  const std::string verify = "cd " + mmv::test::shell_quote(source_dir) +
                             " && python3 tools/scripts/gpu_suite_record.py --verify ";
  CHECK(std::system((verify + "experiments/results/gpu_suite_*.json >/dev/null").c_str()) == 0);
  const auto bad = std::filesystem::temp_directory_path() / "mmvram_bad_suite_record.json";
  auto record = nlohmann::ordered_json::parse(read_text(source_dir + "/experiments/results/gpu_suite_H100.json"));
  REQUIRE(record.contains("commit"));
  record["commit"] = std::string(40, '1');
  mmv::test::write_text(bad, record.dump(1) + "\n");
  const bool shallow = std::system(("cd " + mmv::test::shell_quote(source_dir) +
                                    " && test \"$(git rev-parse --is-shallow-repository 2>/dev/null)\" = false").c_str()) != 0;
  if (!shallow) CHECK(std::system((verify + mmv::test::shell_quote(bad.string()) + " >/dev/null").c_str()) != 0);
  std::filesystem::remove(bad);
}

// The result tables of the docs are generated from experiments/results/*.json by
// tools/scripts/results_tables.py (between `<!-- table: NAME -->` and `<!-- /table -->`): every
// such table is what its JSON gives, and a table edited by hand is caught.
TEST_CASE("every generated result table in docs/ is what experiments/results gives") {
  const std::string script = "cd " + mmv::test::shell_quote(source_dir) + " && python3 tools/scripts/results_tables.py ";
  CHECK(std::system((script + "--check >/dev/null").c_str()) == 0);
  const std::string kernels = read_text(source_dir + "/docs/kernels.md");
  CHECK(kernels.find("<!-- table: sass_mix -->") != std::string::npos);
  const auto tampered = std::filesystem::temp_directory_path() / "mmvram_tampered_table.md";
  std::string page = kernels;
  const auto at = page.find("<!-- /table -->");
  REQUIRE(at != std::string::npos);
  page.insert(at, "| a row no JSON gives |\n");
  mmv::test::write_text(tampered, page);
  CHECK(std::system((script + "--check " + mmv::test::shell_quote(tampered.string()) + " 2>/dev/null").c_str()) != 0);
  std::filesystem::remove(tampered);
}
