// The closed-form costs of the scans by name, for sizes far beyond simulation (n up to 2^40):
// every algorithm whose counts depend on n and s alone. SCD and SSCR take their one-segment
// form: their steps and depth do not depend on the number of segments, only their VCU work does.
#pragma once
#include "mmvram/algorithms/common.hpp"

#include <string>
#include <vector>

namespace mmv {

// The names closed_form_cost knows (the registry's names), MMU algorithms first.
const std::vector<std::string>& closed_form_algorithms();

// The predicted ledger counts of algorithm `name` on n elements with tile size s. Throws
// model_error for a name without a closed form in n and s, or n < 0, s < 2.
cost_prediction closed_form_cost(const std::string& name, std::int64_t n, int s);

}  // namespace mmv
