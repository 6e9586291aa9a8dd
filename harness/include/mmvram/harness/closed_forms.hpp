// The closed-form costs of the scans by name, for sizes far beyond simulation (n up to 2^40):
// every algorithm whose counts depend on n and s alone holds its form in its registry entry
// (algorithm_entry::closed_form). SCD and SSCR take their one-segment form: their steps and
// depth do not depend on the number of segments, only their VCU work does.
#pragma once
#include "mmvram/algorithms/common.hpp"

#include <cstdint>
#include <string>

namespace mmv {

// The predicted ledger counts of algorithm `name` on n elements with tile size s. Throws
// model_error for an unknown name, a name without a closed form in n and s (with the entry's
// reason), or n < 0, s < 2.
cost_prediction closed_form_cost(const std::string& name, std::int64_t n, int s);

}  // namespace mmv
