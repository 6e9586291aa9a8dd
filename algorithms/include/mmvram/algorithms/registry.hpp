// The table of algorithms the `mmvram` tool runs: for each one its name, its units and bounds,
// the input it consumes, a runner that executes it on a machine and checks the result against
// the sequential reference (reference.hpp), and its exact predicted cost.
#pragma once
#include "mmvram/algorithms/applications.hpp"
#include "mmvram/algorithms/common.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mmv {

// What an algorithm consumes (the tool builds or reads exactly these fields).
enum class input_shape {
  values,        // x
  segmented,     // x and segment-start flags f
  decayed,       // decays a in (0, 1], inputs b, flags f
  sparse_matrix, // a CSR matrix A and a dense vector v (n = nonzeros of A)
  vector_pair,   // two integer vectors x and y
  matrix_pair,   // two n x n integer matrices (row-major in x and y)
};
// The shape's inputs as `mmvram list` prints them ("x, flags", "CSR matrix, v", ...).
const char* to_string(input_shape shape);

// Host-side inputs of one run; an algorithm reads the fields its shape names. Integer machines
// use `words` (and `words2`), float machines `reals`: x, or b for decayed scans, or the dense
// vector v of SpMV.
struct algorithm_input {
  std::vector<word> words, words2;
  std::vector<real> reals;
  std::vector<word> flags;   // segment starts; position 0 always starts a segment
  std::vector<real> decays;  // a of the decayed scan
  csr_matrix matrix;         // A of SpMV (integer machines need integer values)
  // The problem size n the cost formulas take: the length of x, the nonzeros of A, or the
  // side of the matrices. Set by whoever fills the fields.
  std::int64_t n = 0;
};

// The result of one run, already compared with the reference.
struct algorithm_outcome {
  bool verified = false;
  double max_abs_error = 0;  // 0 for exact integer matches
  double tolerance = 0;      // allowed |out - ref| in float modes (0: exact)
  std::string mismatch;      // first differing position, when not verified
  std::int64_t output_length = 0;
  std::vector<std::string> output_preview;  // first 16 output values, at round-trip precision
  std::vector<word> output_words;           // the whole result of an integer run
  std::vector<real> output_reals;           // the whole result of a float run
  double simulate_seconds = 0;              // loading, running and reading back only
};

struct algorithm_entry {
  std::string name;          // the tool's name, e.g. "sscr"
  std::string title;         // one line: what it computes and how
  std::string units;         // "VCU only" or "MMU+VCU"
  std::string step_bound;    // e.g. "O(log_s n)"
  std::string work_bound;    // e.g. "O(n s)"
  std::string min_word_bits; // what the smallest B must hold (word_bits.hpp computes it)
  input_shape shape;
  bool integer_ok = true, float_ok = true;
  using runner = std::function<algorithm_outcome(machine& m, const algorithm_input& in)>;
  using predictor = std::function<std::optional<cost_prediction>(const algorithm_input& in, const machine_config& c)>;
  // Runs the algorithm on `m` (whose config picks s, B and the format) and verifies it.
  runner run;
  // The exact ledger counts the algorithm's closed form predicts, or nothing if it has none.
  predictor predicted;
  // The iterated-addition block the algorithm needs on n elements (the machine's
  // iterated_addition_limit); empty for every algorithm of the plain model (limit 0, off).
  std::function<std::int64_t(std::int64_t n)> iterated_addition_limit = {};
};

// A value as the shortest text that reads back to it exactly: integers in decimal, reals as
// float32 in float32 mode (the machine holds nothing finer) and as double otherwise.
std::string format_value(word v, number_format format);
std::string format_value(real v, number_format format);

// Every algorithm, in the order `mmvram list` prints them.
const std::vector<algorithm_entry>& algorithm_table();
// The entry named `name`; throws model_error listing the known names otherwise.
const algorithm_entry& find_algorithm(const std::string& name);

}  // namespace mmv
