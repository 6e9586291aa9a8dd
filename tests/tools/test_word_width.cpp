// The run report states min_word_bits for every integer input: over random (algorithm, n, s,
// M) the same run passes at that B, `--min-bits` (bisection by re-running) finds at most that
// B (exactly it when the report says `min_word_bits_exact`), and where exact B - 1 overflows
// (exit 2, width error). Seed printed; MMV_TEST_SEED fixes it.
#include "catch.hpp"
#include "test_seed.hpp"
#include "tool_process.hpp"

#include "mmvram/harness/registry.hpp"

#include <random>

using mmv::test::json_field;
using mmv::test::run_tool;

TEST_CASE("the report's min_word_bits runs, the search agrees, and B - 1 overflows where exact") {
  const auto seed = mmv::test::fresh_seed();
  CAPTURE(seed);
  std::mt19937_64 g(seed);
  const std::vector<std::string> algorithms{
      "hillis-steele-scan", "brent-kung-scan", "matmul-scan", "scd", "sscr", "block-sscr", "schwartz-segmented-scan",
      "min-index-segmented-scan", "spmv", "elementwise-product", "matrix-product", "iterated-addition-scan"};
  for (int k = 0; k < 12; ++k) {
    const auto& algo = algorithms[std::uniform_int_distribution<std::size_t>(0, algorithms.size() - 1)(g)];
    const bool matrix = mmv::find_algorithm(algo).shape == mmv::input_shape::matrix_pair;
    const int most = matrix ? 5 : std::bernoulli_distribution(0.3)(g) ? 4 : 2000;
    const auto n = std::to_string(std::uniform_int_distribution<int>(1, most)(g));
    const auto s = std::to_string(std::vector<int>{2, 3, 7, 16}[std::uniform_int_distribution<int>(0, 3)(g)]);
    const auto m = std::to_string(std::vector<int>{0, 1, 9, 100000}[std::uniform_int_distribution<int>(0, 3)(g)]);
    const bool is_signed = std::bernoulli_distribution(0.5)(g);
    const auto at = [&](const std::string& bits, bool search) {
      std::vector<std::string> args{"run", algo, "--n", n, "--s", s, "--max-value", m, "--seed", std::to_string(k),
                                    "--bits", bits, "--format", "json"};
      if (is_signed) args.push_back("--signed");
      if (search) args.push_back("--min-bits");
      return run_tool(args, "", 60);
    };
    CAPTURE(algo, n, s, m, is_signed);
    const auto full = at("64", true);
    REQUIRE(full.code == 0);
    const int b = std::stoi(json_field(full.out, "min_word_bits"));
    const int searched = std::stoi(json_field(full.out, "min_word_bits_searched"));
    const bool exact = json_field(full.out, "min_word_bits_exact") == "true";
    CAPTURE(b, searched, exact);
    CHECK(at(std::to_string(b), false).code == 0);
    CHECK(searched <= b);
    if (exact) CHECK(searched == b);
    if (exact && b > 2) {
      const auto below = at(std::to_string(b - 1), false);
      CHECK(below.code == 2);
      CHECK(below.err.find("word-width overflow") != std::string::npos);
    }
  }
}
