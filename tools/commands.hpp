// The commands of `mmvram`; each returns the process exit code (0 ok, 1 verification failed)
// and throws usage_error / model_error / width_error for exit code 2 (see main.cpp).
#pragma once
#include "cli.hpp"

namespace mmv::tool {

int print_instructions(const instructions_options& options);
int print_list(const list_options& options);
int command_run(const run_options& options);

}  // namespace mmv::tool
