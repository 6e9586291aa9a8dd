// The table of algorithms the `mmvram` tool runs: for each one its name, its units and bounds,
// the input it consumes, a runner that executes it on a machine and checks the result against
// the sequential reference (reference.hpp, verify.hpp), and its exact predicted cost. Entries
// are written with designated initializers (registry.cpp).
#pragma once
#include "mmvram/algorithms/common.hpp"
#include "mmvram/harness/input.hpp"
#include "mmvram/harness/verify.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mmv {

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

// Every algorithm, in the order `mmvram list` prints them.
const std::vector<algorithm_entry>& algorithm_table();
// The entry named `name`; throws model_error listing the known names otherwise.
const algorithm_entry& find_algorithm(const std::string& name);

}  // namespace mmv
