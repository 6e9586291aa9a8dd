// The commands of `mmvram`; each returns the process exit code (0 ok, 1 verification failed)
// and throws usage_error / model_error / width_error for exit code 2 (see main.cpp).
#pragma once
#include "cli.hpp"

#include <string>
#include <vector>

namespace mmv::tool {

// `mmvram instructions`: the instruction table with its prices (instruction_table.hpp); returns 0.
int print_instructions(const instructions_options& options);
// `mmvram list`: every registered algorithm, as a table or JSON (--format); returns 0.
int print_list(const list_options& options);
// `mmvram run`: one verified run, its report on stdout in --format; returns 0 when the result
// verified, 1 (with one line on stderr) when it did not.
int command_run(const run_options& options);
// `mmvram calibrate`: times single instructions on a timing backend and writes the fitted device
// profile (mmvram/prediction/profile_file.hpp) to --out; returns 0. Throws model_error where the backend is missing.
int command_calibrate(const calibrate_options& options);
// `mmvram predict`: one run on the simulate backend and the device time its ledger predicts with
// --profile (serial and along the DAG) beside its step and work counts; csv/json as `run`.
// Returns 0 when the run verified, 1 when it did not.
int command_predict(const run_options& options);
// `mmvram closed-forms`: the closed-form counts of scans as CSV (algorithm, n, s, steps, depth), for
// sizes beyond simulation; model_error for an algorithm without a closed form in n and s.
int print_closed_forms(const closed_forms_options& options);
// `mmvram kernels SUBCOMMAND ARGS...` (CUDA builds only; tools/kernels/command.cpp): the fused
// kernels' check, bench, profile, accuracy, stress and state-passing. Returns 0 ok, 1 when a
// kernel failed, 2 when no CUDA device is usable; throws usage_error for a bad command line.
int command_kernels(const std::vector<std::string>& args);

}  // namespace mmv::tool
