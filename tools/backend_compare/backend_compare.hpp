// One algorithm, two executors: a registered algorithm run on the simulate and the cuda backends
// on the same input, outputs and ledgers compared. Used by the backend tests and by
// `mmvram kernels stress` (its cuda-backend thread). Inputs come from the harness's input
// library (run_inputs.hpp); in tools/ (library mmvram_backend_compare) beside the commands that
// use it, since it joins the harness and the cuda backend.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "mmvram/model/types.hpp"

namespace mmv::gpu {

// One comparison: a registry entry, the machine's number format, tile size and word width, and
// the random input (n items, segment density, seed; integers in [0, max_value] or, signed, in
// [-max_value, max_value], max_value 0 for inputs::default_max_value).
struct backend_case {
  std::string algorithm;
  number_format format = number_format::integer;
  int s = 16, bits = 32;
  std::int64_t n = 0;
  double density = 0.05;
  std::uint64_t seed = 1;
  bool signed_values = false;
  std::int64_t max_value = 0;
};

// Runs the case on both backends. Returns "" when the ledgers match record for record and the
// outputs agree (integers bit for bit, floats within twice the run's stated tolerance), else
// what differed first.
std::string compare_backends(const backend_case& c);

// A machine configuration on `backend` ("simulate", "cuda"): number format, tile size s, word
// width, the iterated-addition limit (0: none) and no DAG.
machine_config backend_config(const std::string& backend, number_format f, int s, int bits,
                              std::int64_t iterated_addition = 0);

// The number formats the registry entry `algorithm` runs in.
std::vector<number_format> formats_of(const std::string& algorithm);

// One random comparison drawn from case_seed: algorithm, format, n (<= 5000; <= 5 for square
// matrices), s in {2, 3, 16, 128}, density. Returns what compare_backends returns, prefixed
// by the case when it failed.
std::string random_backend_case(std::uint64_t case_seed);

}  // namespace mmv::gpu
