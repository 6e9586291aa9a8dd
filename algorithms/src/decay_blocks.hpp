// Shared by the decayed scans (decayed_scan.cpp) and state passing (state_passing.cpp): the
// finite log-decay that stands for a reset, and the constant s x s matrices their blocks are
// multiplied by on the MMU.
#pragma once
#include "mmvram/algorithms/common.hpp"

namespace mmv::detail {

// The log-decay that stands for a = 0: exp(−1e4) is exactly 0 in float32 and float64, and
// sums of up to 2^60 of them stay finite in float32.
constexpr real reset_log = -1.0e4;

struct decay_constants {
  real_vec suffix, prefix, row_total;
};

// Loads W_suffix[k][c] = [k > c] (column c of row × W is the sum of the row's entries right of
// c), the prefix matrix and the row-total matrix (scalar unit, free).
decay_constants load_decay_constants(machine& m);

}  // namespace mmv::detail
