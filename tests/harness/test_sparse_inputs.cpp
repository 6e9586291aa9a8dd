// The sparse inputs of SpMV (mmvram/harness/sparse_inputs.hpp): the BigBird pattern's block structure
// and the Matrix Market reader's formats and errors.
#include "catch.hpp"
#include "test_seed.hpp"

#include "mmvram/harness/sparse_inputs.hpp"

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

using mmv::test::fresh_seed;

TEST_CASE("bigbird_matrix: block structure", "[spmv][bigbird]") {
  const std::int64_t n = 64, block = 4, nb = n / block;
  const int r = 3, w = 3, globals = 2;
  const auto seed = fresh_seed();
  CAPTURE(seed);
  const auto a = mmv::bigbird_matrix(n, block, r, w, globals, seed);
  mmv::validate_csr(a);
  const auto again = mmv::bigbird_matrix(n, block, r, w, globals, seed);
  CHECK(again.col_idx == a.col_idx);
  CHECK(again.values == a.values);
  for (std::int64_t row = 0; row < n; ++row) {
    const std::int64_t i = row / block;
    std::vector<int> hit(nb, 0);
    for (std::int64_t e = a.row_ptr[row]; e < a.row_ptr[row + 1]; ++e) {
      if (e > a.row_ptr[row]) CHECK(a.col_idx[e] > a.col_idx[e - 1]);  // sorted, no duplicates
      hit[a.col_idx[e] / block] += 1;
      CHECK(a.values[e] >= -1.0);
      CHECK(a.values[e] < 1.0);
    }
    std::int64_t blocks = 0;
    for (std::int64_t j = 0; j < nb; ++j) {
      CHECK((hit[j] == 0 || hit[j] == block));  // whole blocks only
      blocks += hit[j] ? 1 : 0;
    }
    if (i < globals) {
      CHECK(blocks == nb);  // global rows are dense
      continue;
    }
    CHECK(hit[0] == block);  // global columns
    CHECK(hit[1] == block);
    for (std::int64_t j = std::max<std::int64_t>(0, i - 1); j <= std::min(nb - 1, i + 1); ++j) CHECK(hit[j] == block);
    const std::int64_t fixed = 2 + 3 - (i <= 2 ? (i == 2 ? 1 : 2) : 0) - (i == nb - 1 ? 1 : 0);
    CHECK(blocks == fixed + r);  // window ∪ globals, plus r random blocks
  }
  CHECK_THROWS_AS(mmv::bigbird_matrix(10, 4, 1, 1, 1, 1), mmv::model_error);
}

TEST_CASE("read_matrix_market: formats, symmetry, comments", "[spmv][matrix-market]") {
  std::istringstream general(
      "%%MatrixMarket matrix coordinate real general\n% a comment\n\n3 4 4\n3 4 -2.5\n1 1 1e1\n1 3 2\n3 1 0.5\n");
  const auto a = mmv::read_matrix_market(general);
  CHECK(a.rows == 3);
  CHECK(a.cols == 4);
  CHECK(a.row_ptr == std::vector<std::int64_t>{0, 2, 2, 4});
  CHECK(a.col_idx == std::vector<std::int64_t>{0, 2, 0, 3});
  CHECK(a.values == std::vector<double>{10, 2, 0.5, -2.5});
  std::istringstream symmetric("%%MatrixMarket matrix coordinate integer symmetric\n3 3 3\n1 1 4\n3 1 -2\n3 2 7\n");
  const auto b = mmv::read_matrix_market(symmetric);
  CHECK(b.row_ptr == std::vector<std::int64_t>{0, 2, 3, 5});
  CHECK(b.col_idx == std::vector<std::int64_t>{0, 2, 2, 0, 1});
  CHECK(b.values == std::vector<double>{4, -2, 7, -2, 7});
  std::istringstream pattern("%%MatrixMarket matrix coordinate pattern general\n2 2 2\n2 1\n1 2\n");
  const auto c = mmv::read_matrix_market(pattern);
  CHECK(c.col_idx == std::vector<std::int64_t>{1, 0});
  CHECK(c.values == std::vector<double>{1, 1});
}

TEST_CASE("read_matrix_market: malformed input raises model_error", "[spmv][matrix-market]") {
  for (const char* text : {
           "",
           "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n",
           "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n",
           "%%MatrixMarket matrix coordinate real hermitian\n1 1 1\n1 1 1\n",
           "%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1\n",
           "%%MatrixMarket matrix coordinate real general\n",
           "%%MatrixMarket matrix coordinate real general\n2 2\n",
           "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n",
           "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1\n2 2 2\n",
           "%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1\n",
           "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 0 1\n",
           "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1\n",
           "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1 9\n",
           "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 x\n",
           "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 1.5\n",
           "%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n1 2 1\n",
           "%%MatrixMarket matrix coordinate real symmetric\n2 3 1\n1 1 1\n",
       }) {
    CAPTURE(text);
    std::istringstream in(text);
    CHECK_THROWS_AS(mmv::read_matrix_market(in), mmv::model_error);
  }
}
