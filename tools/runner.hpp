// One run of one algorithm: build the input, run it on a fresh machine, verify it, and
// collect the ledger into a run_report (writing the DAG as Graphviz DOT when asked).
#pragma once
#include "cli.hpp"
#include "report.hpp"

namespace mmv::tool {

// Throws usage_error (bad options or files), model_error (input the machine rejects) and
// width_error (a value that does not fit B bits). A real result that is not finite (a float
// overflow from finite inputs) does not throw: the report keeps its counts and says so in
// `error` ("float overflow: INSTRUCTION (instruction #) produced inf at index I ...").
run_report run_once(const run_options& options);

}  // namespace mmv::tool
