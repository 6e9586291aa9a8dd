// `mmvram sweep`: many runs over n, s, B and density, in parallel on the available cores,
// appended to a CSV (the schema of report.hpp) that a later sweep resumes without redoing rows.
#pragma once
#include "cli.hpp"

namespace mmv::tool {

// Runs every missing point and appends its row. Returns 0 when every row in the file's sweep
// points verified, 1 otherwise; throws usage_error for bad options or a foreign CSV.
int run_sweep(const sweep_options& options);

}  // namespace mmv::tool
