// The random input of one run of a registered algorithm (`mmvram run`, the backend comparison):
// every array drawn from random_inputs.hpp's one SplitMix64 stream keyed by the seed, in a fixed
// order per input shape, so a seed gives the same input on every platform
// (tests/tools/test_input_hashes.cpp holds their hashes). Checks of the sizes against the host's
// memory are the caller's.
#pragma once
#include "mmvram/harness/input.hpp"
#include "mmvram/harness/random_inputs.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace mmv::inputs {

// What a random run input is drawn from.
struct run_draw {
  std::int64_t n = 1024;           // items; the side of the matrices; the chunks of state passing
  double density = 0.05;           // probability that a position (a chunk) starts a segment
  std::optional<distribution> dist;  // segment starts of this distribution keyed by seed instead
  std::uint64_t seed = 1;
  std::optional<std::int64_t> max_value;  // integers in [0, M] ([-M, M] signed); default_max_value
  bool signed_values = false;
  // SpMV on a BigBird matrix (sparse_inputs.hpp): block, random[, window = 1, global = 2] blocks;
  // empty for the random CSR matrix.
  std::vector<std::int64_t> bigbird;
  state_shape lanes;  // the lanes of each chunk of state passing
};

// The largest value random integers take by default for this shape, n and B (docs/tool.md):
// totals and products of the drawn values stay inside B bits. At least 1.
std::int64_t default_max_value(input_shape shape, std::int64_t n, int bits);

// The input of `shape` drawn from d on a machine of `format` and word width `bits` (reals held
// as that machine holds them, held()). Values: bounded_words in [0, M] (M = max_value, else
// default_max_value) or bounded_reals; segment starts: distribution_flags(dist, n, seed) when
// dist is set, else bounded_flags at `density`; decays 0.5 + 0.5 u (u uniform in [0, 1), drawn
// after the flags); SpMV: a square CSR matrix whose n nonzeros start a new row at each segment
// start, uniform columns, then the vector (or a BigBird matrix of side n, integers rounded from
// M times its values); state passing: random_state_passing (|u| unless signed). Bad bigbird
// parameters throw model_error (bigbird_matrix's).
algorithm_input random_run_input(input_shape shape, const run_draw& d, number_format format, int bits);

}  // namespace mmv::inputs
