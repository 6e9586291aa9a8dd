// What an algorithm consumes: the input shapes, one table of their facts (which inputs and
// files each reads, how n and the segments are counted, how many elements a run holds), and
// the host-side input of one run. The tool and the registry read the facts from here only.
#pragma once
#include "mmvram/algorithms/applications.hpp"
#include "mmvram/algorithms/state_passing.hpp"

#include <cstdint>
#include <vector>

namespace mmv {

enum class input_shape {
  values,        // x
  segmented,     // x and segment-start flags f
  decayed,       // decays a in (0, 1], inputs b, flags f
  sparse_matrix, // a CSR matrix A and a dense vector v (n = nonzeros of A)
  vector_pair,   // two integer vectors x and y
  matrix_pair,   // two n x n integer matrices (row-major in x and y)
  lanes,         // n chunks of H x N x V lanes: inputs u, log-decays l, chunk-start flags f
};

// The facts of one shape.
struct shape_facts {
  input_shape shape;
  const char* inputs;     // as `mmvram list` prints them: "x, flags", "CSR matrix, v", ...
  bool flags = false;     // segment-start flags (random ones drawn at --density; --flags FILE)
  bool decays = false;    // decays a (--decays FILE)
  bool second = false;    // a second operand y (--values2 FILE)
  bool matrix = false;    // a CSR matrix and its vector (--matrix, --vector), rows as segments
  bool square = false;    // n is the side of n x n matrices (n^2 values per operand, n^3 products)
  bool products = false;  // integer runs multiply through B-bit copies of their operands
  bool random_segments = false;  // random inputs draw segment starts at --density (flags, or rows)
  bool lanes = false;     // n chunks of H x N x V lanes (--heads, --rows, --cols, --decay); random only
};

// The facts of `shape` (one table for all shapes).
const shape_facts& facts_of(input_shape shape);
// The shape's inputs as `mmvram list` prints them (facts_of(shape).inputs).
const char* to_string(input_shape shape);

// Host-side inputs of one run; an algorithm reads the fields its shape names. Integer machines
// use `words` (and `words2`), float machines `reals`: x, or b for decayed scans, or the dense
// vector v of SpMV.
struct algorithm_input {
  std::vector<word> words, words2;
  std::vector<real> reals;
  std::vector<word> flags;   // segment starts; position 0 always starts a segment
  std::vector<real> decays;  // a of the decayed scan
  std::vector<real> log_decays;  // l of state passing, [n][D] (D decay rows, lanes.decay_rows())
  state_shape lanes;             // the lanes of state passing (reals: u, [n][H][N][V])
  csr_matrix matrix;         // A of SpMV (integer machines need integer values)
  // The problem size n the cost formulas take: the length of x, the nonzeros of A, or the
  // side of the matrices. Set by whoever fills the fields.
  std::int64_t n = 0;
};

// The segments of `in`: 1 + the flags set after position 0 for shapes with flags (0 when
// empty), the matrix's rows for SpMV, 1 for plain values, 0 for the products.
std::int64_t segment_count(input_shape shape, const algorithm_input& in);

// The elements a run of `shape` holds at once for size n (nonzeros for SpMV, the side for
// matrices, chunks for lanes): n, n^3 products for matrices, times B on integer machines for
// the products; lanes count one element per chunk (the tool multiplies by the lanes).
double run_elements(input_shape shape, double n, bool integer, int bits);

}  // namespace mmv
