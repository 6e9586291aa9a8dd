// `run --min-bits` reports the smallest B its input runs at: over random (algorithm, n, s, M)
// the same run passes at that B and overflows (exit 2, width error) at B - 1 (seed printed;
// MMV_TEST_SEED fixes it).
#include "catch.hpp"
#include "test_seed.hpp"
#include "tool_process.hpp"

#include <random>

using mmv::test::json_field;
using mmv::test::run_tool;

TEST_CASE("--min-bits reports a B that runs, and B - 1 overflows") {
  const auto seed = mmv::test::fresh_seed();
  CAPTURE(seed);
  std::mt19937_64 g(seed);
  const std::vector<std::string> algorithms{"hillis-steele-scan", "brent-kung-scan", "matmul-scan", "scd", "sscr",
                                            "block-sscr", "schwartz-segmented-scan", "min-index-segmented-scan"};
  for (int k = 0; k < 10; ++k) {
    const auto& algo = algorithms[std::uniform_int_distribution<std::size_t>(0, algorithms.size() - 1)(g)];
    const auto n = std::to_string(std::uniform_int_distribution<int>(1, 2000)(g));
    const auto s = std::to_string(std::vector<int>{2, 3, 7, 16}[std::uniform_int_distribution<int>(0, 3)(g)]);
    const auto m = std::to_string(std::vector<int>{0, 1, 9, 100000}[std::uniform_int_distribution<int>(0, 3)(g)]);
    const auto at = [&](const std::string& bits, bool search) {
      std::vector<std::string> args{"run", algo, "--n", n, "--s", s, "--max-value", m, "--seed", std::to_string(k),
                                    "--signed", "--bits", bits, "--format", "json"};
      if (search) args.push_back("--min-bits");
      return run_tool(args, "", 60);
    };
    CAPTURE(algo, n, s, m);
    const auto full = at("64", true);
    REQUIRE(full.code == 0);
    const int b = std::stoi(json_field(full.out, "min_word_bits"));
    CHECK(at(std::to_string(b), false).code == 0);
    if (b > 2) {
      const auto below = at(std::to_string(b - 1), false);
      CHECK(below.code == 2);
      CHECK(below.err.find("word-width overflow") != std::string::npos);
    }
  }
}
