// Refusing inputs too large for this machine before allocating them: an estimate of the bytes
// a run needs (from --n, --bigbird or a file's header) against the memory the process can have.
#pragma once
#include <cstdint>
#include <string>

namespace mmv::tool {

// The simulator's least memory per element of a run (inputs, speculative scans, results):
// docs/tool.md (Performance) measures 50 (MatMulScan) to 80 (segmented algorithms) bytes.
inline constexpr double bytes_per_element = 48;

// The bytes this process may use: the machine's physical memory, or less under `ulimit -v` or
// the environment variable MMVRAM_MEMORY_LIMIT_MB (the fuzz targets set it to 1024).
double available_memory();

// Throws usage_error ("out of memory: <what> needs about X GiB, more than the Y GiB this
// machine has") when `elements` * bytes_per_element exceeds available_memory().
void require_memory(double elements, const std::string& what);

}  // namespace mmv::tool
