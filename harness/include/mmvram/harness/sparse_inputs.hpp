// Sparse matrices for SpMV from outside the machine: Matrix Market files and BigBird-style
// sparse-attention patterns, both as CSR (applications.hpp). Host code for the tool and tests.
#pragma once
#include "mmvram/algorithms/applications.hpp"

#include <cstdint>
#include <iosfwd>

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

}  // namespace mmv
