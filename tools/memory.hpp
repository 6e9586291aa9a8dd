// Refusing runs too large for this machine before allocating them: an estimate of the bytes a
// run needs (from --n, --bigbird or a file's header, and from the run's predicted longest
// vector) against the memory the process can have, and its predicted simulated operations
// against a work limit.
#pragma once
#include "mmvram/algorithms/common.hpp"

#include <cstdint>
#include <string>

namespace mmv::tool {

// The simulator's least memory per element of a run (inputs, speculative scans, results):
// docs/tool.md (Performance) measures 50 (MatMulScan) to 80 (segmented algorithms) bytes.
inline constexpr double bytes_per_element = 48;

// A run's peak memory per element of the longest vector one of its instructions writes (the
// s-fold cells of the decayed scans and state passing, the bit lanes of the products): 49 to 55
// bytes measured (about seven live 8-byte vectors of that length; docs/tool.md, Resources).
inline constexpr double bytes_per_vector_element = 56;

// The default limit on a run's simulated operations (MMU multiply-adds + VCU element
// operations): 2^36, three times the largest run of experiments/results (sscr at n = 2^28,
// 2.1e10) and about a minute of simulation; MMVRAM_WORK_LIMIT (a count like 2^38) sets another.
inline constexpr double default_work_limit = 0x1p36;

// The bytes this process may use: the machine's physical memory, or less under `ulimit -v` or
// the environment variable MMVRAM_MEMORY_LIMIT_MB (the fuzz targets set it to 1024). A value of
// MMVRAM_MEMORY_LIMIT_MB that is not a number of MiB in (0, 2^40] is a usage_error.
double available_memory();

// The work limit: default_work_limit, or MMVRAM_WORK_LIMIT (a count in 1..2^62, else usage_error).
double work_limit();

// Throws usage_error ("out of memory: <what> needs about X GiB, more than the Y GiB this
// machine has") when `elements` * bytes_per_element exceeds available_memory().
void require_memory(double elements, const std::string& what);

// Throws usage_error when the run `what` predicted by `p` needs more memory than
// available_memory() (p.largest_vector at bytes_per_vector_element bytes), or more simulated
// operations than work_limit(), naming the estimate and the limit.
void require_run_fits(const cost_prediction& p, const std::string& what);

}  // namespace mmv::tool
