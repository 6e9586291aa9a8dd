// Sparse matrices for SpMV from outside the machine: Matrix Market files, BigBird-style
// sparse-attention patterns, power-law (Pareto) row lengths, banded matrices and matrices of
// given row lengths, all as CSR (applications.hpp). Host code for the tool and tests.
#pragma once
#include "mmvram/algorithms/applications.hpp"

#include "mmvram/harness/random_inputs.hpp"

#include <cstdint>
#include <iosfwd>
#include <vector>

namespace mmv {

// Reads a Matrix Market file: "coordinate" format, field real, integer or pattern (values 1),
// symmetry general or symmetric (off-diagonal entries mirrored). Entries are sorted by row, then
// column; duplicates are kept (SpMV sums them). Malformed input throws model_error with the line.
csr_matrix read_matrix_market(std::istream& in);

// A BigBird-style sparse-attention pattern on n×n (n a multiple of `block`), in blocks of
// block×block: block row i holds the window blocks i-(w-1)/2 .. i+w/2 (w = window_blocks, cut
// at the edges), the first g = global_blocks block columns, and r = random_blocks further
// distinct block columns drawn at random (fewer when the row has no room); the first g block
// rows are dense. Values uniform in [-1, 1); pattern and values are drawn in order from one
// stream (random_inputs.hpp) keyed by `seed`.
csr_matrix bigbird_matrix(std::int64_t n, std::int64_t block, int random_blocks, int window_blocks,
                          int global_blocks, std::uint64_t seed);

// Row lengths drawn in order from d: Pareto with shape alpha > 1 and scale x_min = mean (alpha - 1)
// / alpha (so the mean before rounding and capping is `mean`): length = floor(x_min / u^(1/alpha))
// with u = 1 - d.unit() in (0, 1], capped at max_length. rows >= 0, mean > 0, max_length >= 0.
std::vector<std::int64_t> pareto_row_lengths(std::int64_t rows, double mean, double alpha, std::int64_t max_length,
                                             inputs::stream& d);

// A rows×cols CSR matrix whose row r holds lengths[r] entries; each row's columns are drawn
// uniformly from [0, cols) with replacement and sorted (a repeated column is a duplicate entry,
// which SpMV sums), then its values uniform in [-1, 1), all in order from d. cols >= 1 unless
// every length is 0.
csr_matrix matrix_of_row_lengths(const std::vector<std::int64_t>& lengths, std::int64_t cols, inputs::stream& d);

// rows×cols matrix with Pareto(alpha) row lengths of mean `mean` (capped at cols), columns and
// values as matrix_of_row_lengths, from one stream keyed by `seed`.
csr_matrix power_law_matrix(std::int64_t rows, std::int64_t cols, double mean, double alpha, std::uint64_t seed);

// n×n banded matrix: row i holds columns max(0, i - half_width) .. min(n - 1, i + half_width),
// values uniform in [-1, 1) in order from a stream keyed by `seed`. n, half_width >= 0.
csr_matrix banded_matrix(std::int64_t n, std::int64_t half_width, std::uint64_t seed);

}  // namespace mmv
