// The table of input shapes and what follows from it.
#include "mmvram/harness/input.hpp"

#include <algorithm>
#include <array>

namespace mmv {

namespace {

const std::array<shape_facts, 7> table{{
    {.shape = input_shape::values, .inputs = "x"},
    {.shape = input_shape::segmented, .inputs = "x, flags", .flags = true, .random_segments = true},
    {.shape = input_shape::decayed, .inputs = "a, b, flags", .flags = true, .decays = true, .random_segments = true},
    {.shape = input_shape::sparse_matrix, .inputs = "CSR matrix, v", .matrix = true, .products = true,
     .random_segments = true},
    {.shape = input_shape::vector_pair, .inputs = "x, y", .second = true, .products = true},
    {.shape = input_shape::matrix_pair, .inputs = "X, Y (n x n)", .second = true, .square = true, .products = true},
    {.shape = input_shape::lanes, .inputs = "u, l, flags", .flags = true,
     .random_segments = true, .lanes = true},
}};

}  // namespace

const shape_facts& facts_of(input_shape shape) {
  return *std::find_if(table.begin(), table.end(), [&](const shape_facts& f) { return f.shape == shape; });
}

const char* to_string(input_shape shape) { return facts_of(shape).inputs; }

std::int64_t segment_count(input_shape shape, const algorithm_input& in) {
  const shape_facts& f = facts_of(shape);
  if (f.matrix) return in.matrix.rows;
  if (f.flags) return in.flags.empty() ? 0 : 1 + std::count(in.flags.begin() + 1, in.flags.end(), word{1});
  return f.products ? 0 : 1;
}

double run_elements(input_shape shape, double n, bool integer, int bits) {
  const shape_facts& f = facts_of(shape);
  const double elements = f.square ? n * n * n : n;
  return f.products && integer ? elements * bits : elements;
}

}  // namespace mmv
