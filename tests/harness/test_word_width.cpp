// The minimum word width (each entry's word_bits rule, word_bits.hpp) against the machine: over
// random (algorithm, n, s, M), signed or one-signed, every B from 2 to 64 is run. The run passes at the formula's B and at
// every larger B (raising B never turns a pass into a failure), and when the formula says it
// is exact, B - 1 raises width_error; otherwise the smallest passing B is at most the formula's
// (seed printed; MMV_TEST_SEED fixes it).
#include "catch.hpp"
#include "test_seed.hpp"

#include "mmvram/harness/registry.hpp"

#include <random>

using mmv::word;

namespace {

// Random integer input of `shape`: n values in [lo, m] (matrix side n for matrix_pair).
mmv::algorithm_input random_input(std::mt19937_64& g, mmv::input_shape shape, std::int64_t n, word lo, word m) {
  mmv::algorithm_input in;
  in.n = n;
  const std::int64_t len = shape == mmv::input_shape::matrix_pair ? n * n : n;
  std::uniform_int_distribution<word> value(lo, m);
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

TEST_CASE("min_word_bits: the run passes at B and above, and fails at B - 1 where exact") {
  const auto seed = mmv::test::fresh_seed();
  CAPTURE(seed);
  std::mt19937_64 g(seed);
  for (const auto& e : mmv::algorithm_table()) {
    if (!e.integer_ok) continue;
    for (int k = 0; k < 12; ++k) {
      const bool matrix = e.shape == mmv::input_shape::matrix_pair;
      const bool tiny = std::bernoulli_distribution(0.25)(g);
      const std::int64_t n = std::uniform_int_distribution<std::int64_t>(1, tiny ? 4 : matrix ? 6 : 300)(g);
      const int s = std::vector<int>{2, 3, 5, 16}[std::uniform_int_distribution<int>(0, 3)(g)];
      const word m = std::vector<word>{0, 1, 7, 1000, word{1} << 40}[std::uniform_int_distribution<int>(0, 4)(g)];
      const word lo = std::vector<word>{-m, 0, -m / 3}[std::uniform_int_distribution<int>(0, 2)(g)];
      const auto in = random_input(g, e.shape, n, lo, m);
      const auto need = mmv::min_word_bits(e, in, s);
      CAPTURE(e.name, n, s, lo, m, need.bits, need.exact);
      int smallest = 0;
      for (int bits = 2; bits <= 64; ++bits) {
        const int result = outcome_at(e, in, s, bits);
        CAPTURE(bits);
        REQUIRE(result != -1);
        if (smallest || bits >= need.bits) REQUIRE(result == 1);
        if (!smallest && result == 1) smallest = bits;
      }
      if (need.bits > 64) REQUIRE(smallest == 0);
      else if (need.exact) REQUIRE(smallest == need.bits);
      else REQUIRE(smallest <= need.bits);
    }
  }
}
