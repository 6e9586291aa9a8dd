// The table of algorithms: one entry per algorithm holds every fact the project keeps about it
// (its name, units and bounds, the input it consumes, a runner that executes it on a machine
// and checks the result against the sequential reference (reference.hpp, verify.hpp), its exact
// predicted cost, its closed form, its minimum word width rule, whether the cuda backend runs
// it, and its fused GPU kernels). Entries are written with designated initializers
// (registry.cpp); find_algorithm is the one lookup by name.
#pragma once
#include "mmvram/algorithms/common.hpp"
#include "mmvram/harness/input.hpp"
#include "mmvram/harness/verify.hpp"
#include "mmvram/harness/word_bits.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mmv {

struct algorithm_entry {
  std::string name;          // the tool's name, e.g. "sscr"
  std::string title;         // one line: what it computes and how
  std::string units;         // "VCU only", "MMU+VCU" or "VCU+iadd"
  std::string step_bound;    // e.g. "O(log_s n)"
  std::string work_bound;    // e.g. "O(n s)"
  std::string min_word_bits; // what the smallest B must hold, as `mmvram list` prints it
  input_shape shape;
  bool integer_ok = true, float_ok = true;
  // Float runs may fail verification by design, on the inputs its min_word_bits text names (a
  // method shown to break down); every other algorithm verifies on every valid input.
  bool breaks_down = false;
  using runner = std::function<algorithm_outcome(machine& m, const algorithm_input& in)>;
  using predictor = std::function<std::optional<cost_prediction>(const algorithm_input& in, const machine_config& c)>;
  using closed_form_fn = cost_prediction (*)(std::int64_t n, int s);
  // Runs the algorithm on `m` (whose config picks s, B and the format) and verifies it.
  runner run;
  // The exact ledger counts of a run on `in` with config c (its cost formulas, from every fact
  // of the input they depend on), or nothing where none applies.
  predictor predicted;
  // The counts on n elements (one segment) with tile size s, for sizes far beyond simulation
  // (closed_forms.hpp, `mmvram closed-forms`); null when they depend on more than n and s.
  closed_form_fn closed_form = nullptr;
  std::string no_closed_form = {};  // why closed_form is null; empty when it is set
  // The smallest B an integer run needs (word_bits.hpp); empty without integer mode.
  word_bits_rule word_bits = {};
  // The machine's cuda backend runs it (tests/gpu/test_backends.cpp compares it with simulate).
  bool cuda_backend = true;
  // The fused GPU kernels computing the same result, by `mmvram kernels`' names (state passing:
  // its state-propagation methods); empty when it has none.
  std::vector<std::string> fused_kernels = {};
  // The iterated-addition block the algorithm needs on n elements (the machine's
  // iterated_addition_limit); empty for every algorithm of the plain model (limit 0, off).
  std::function<std::int64_t(std::int64_t n)> iterated_addition_limit = {};
};

// Every algorithm, in the order `mmvram list` prints them.
const std::vector<algorithm_entry>& algorithm_table();
// The entry named `name`; throws model_error listing the known names otherwise.
const algorithm_entry& find_algorithm(const std::string& name);
// The minimum word width of an integer run of `e` on `in` with tile size s (e.word_bits);
// throws model_error for an algorithm without integer mode.
word_bits_need min_word_bits(const algorithm_entry& e, const algorithm_input& in, int s);

}  // namespace mmv
