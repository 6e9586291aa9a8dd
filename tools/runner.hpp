// One run of one algorithm: build the input, run it on a fresh machine, verify it, and
// collect the ledger into a run_report (writing the DAG as Graphviz DOT when asked).
#pragma once
#include "cli.hpp"
#include "report.hpp"

namespace mmv::tool {

// The width_error of an integer run, with the smallest word width its input needs
// (min_word_bits, word_bits.hpp; 65 when no B <= 64 does), for the error's hint.
struct run_width_error : width_error {
  run_width_error(const width_error& e, int needed) : width_error(e), needed_bits(needed) {}
  int needed_bits;
};

// Throws usage_error (bad options or files), model_error (input the machine rejects) and
// width_error (a value that does not fit B bits; run_width_error in integer mode). A real result that is not finite (a float
// overflow from finite inputs) does not throw: the report keeps its counts and says so in
// `error` ("float overflow: INSTRUCTION (instruction #) produced inf at index I ...").
run_report run_once(const run_options& options);

}  // namespace mmv::tool
