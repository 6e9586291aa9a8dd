// Everything the tool writes besides the report: the whole result vector (--output), checked
// writes (a failed write is an io_error, exit code 2) and error text with bad bytes escaped.
#pragma once
#include "mmvram/harness/registry.hpp"

#include <iosfwd>
#include <stdexcept>
#include <string>

namespace mmv::tool {

// A write that failed (full disk, closed pipe, unwritable path): one line on stderr, exit code 2.
struct io_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Flushes `out` and throws io_error naming `what` (e.g. "the DAG file 'g.dot'") if any write
// to it failed, with the system's reason.
void check_written(std::ostream& out, const std::string& what);

// `text` with every byte outside printable ASCII written as \xNN (mmvram/model/types.hpp).
using mmv::escaped;

// Writes the whole result of a run to `path`: raw little-endian binary when the name ends in
// .u8 .i32 .i64 .f32 .f64 (every value must fit that type exactly, else io_error before
// anything is written), otherwise text, one value per line at round-trip precision.
void write_result(const std::string& path, const algorithm_outcome& outcome, number_format format);

// Writes `bytes` to `path` without waiting for the reader of a FIFO (mmvram/model/files.hpp);
// io_error "cannot write <what>: <reason>".
void write_output_file(const std::string& path, const std::string& bytes, const std::string& what);

}  // namespace mmv::tool
