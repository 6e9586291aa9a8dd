// The word width is monotone: over random (algorithm, n, s, M), once an input runs at some B
// without a word-width overflow it runs (and verifies) at every larger B (seed printed;
// MMV_TEST_SEED fixes it). The integer products are not monotone yet: their re-padding gather
// addresses n c digits (c = ceil((B-1)/s) / s^l), needed at some B and not at B - 1, so for them
// the test only requires that every run verifies or overflows.
#include "catch.hpp"
#include "test_seed.hpp"

#include "mmvram/algorithms/registry.hpp"

#include <random>

using mmv::word;

namespace {

// Random integer input of `shape`: n values in [-m, m] (matrix side n for matrix_pair).
mmv::algorithm_input random_input(std::mt19937_64& g, mmv::input_shape shape, std::int64_t n, word m) {
  mmv::algorithm_input in;
  in.n = n;
  const std::int64_t len = shape == mmv::input_shape::matrix_pair ? n * n : n;
  std::uniform_int_distribution<word> value(-m, m);
  std::bernoulli_distribution start(0.1);
  for (std::int64_t i = 0; i < len; ++i) in.words.push_back(value(g)), in.words2.push_back(value(g));
  for (std::int64_t i = 0; i < n; ++i) in.flags.push_back(i == 0 || start(g) ? 1 : 0);
  if (shape == mmv::input_shape::sparse_matrix) {
    auto& a = in.matrix;
    for (std::int64_t i = 0; i < n; ++i)
      if (in.flags[i]) a.row_ptr.push_back(i);
    a.row_ptr.push_back(n);
    a.rows = a.cols = static_cast<std::int64_t>(a.row_ptr.size()) - 1;
    for (std::int64_t i = 0; i < n; ++i) {
      a.col_idx.push_back(std::uniform_int_distribution<std::int64_t>(0, a.cols - 1)(g));
      a.values.push_back(static_cast<double>(value(g)));
    }
    in.words.resize(static_cast<std::size_t>(a.cols));
  }
  return in;
}

// 1: ran and verified, 0: word-width overflow, -1: ran but did not verify.
int outcome_at(const mmv::algorithm_entry& e, const mmv::algorithm_input& in, int s, int bits) {
  mmv::machine_config c;
  c.s = s;
  c.word_bits = bits;
  if (e.iterated_addition_limit) c.iterated_addition_limit = e.iterated_addition_limit(in.n);
  mmv::machine m(c);
  try {
    return e.run(m, in).verified ? 1 : -1;
  } catch (const mmv::width_error&) {
    return 0;
  }
}

}  // namespace

TEST_CASE("raising B never turns a passing run into a failing one") {
  const auto seed = mmv::test::fresh_seed();
  CAPTURE(seed);
  std::mt19937_64 g(seed);
  for (const auto& e : mmv::algorithm_table()) {
    if (!e.integer_ok) continue;
    for (int k = 0; k < 6; ++k) {
      const bool matrix = e.shape == mmv::input_shape::matrix_pair;
      const std::int64_t n = std::uniform_int_distribution<std::int64_t>(1, matrix ? 6 : 300)(g);
      const int s = std::vector<int>{2, 3, 5, 16}[std::uniform_int_distribution<int>(0, 3)(g)];
      const word m = std::vector<word>{0, 1, 7, 1000}[std::uniform_int_distribution<int>(0, 3)(g)];
      const auto in = random_input(g, e.shape, n, m);
      const bool monotone = e.shape != mmv::input_shape::vector_pair && e.shape != mmv::input_shape::matrix_pair &&
                            e.shape != mmv::input_shape::sparse_matrix;
      int smallest = 0;
      for (int bits = 2; bits <= 64; ++bits) {
        const int result = outcome_at(e, in, s, bits);
        CAPTURE(e.name, n, s, m, bits);
        REQUIRE(result != -1);
        if (smallest && monotone) REQUIRE(result == 1);  // passing at smallest <= bits
        if (!smallest && result == 1) smallest = bits;
      }
      REQUIRE(smallest > 0);
    }
  }
}
