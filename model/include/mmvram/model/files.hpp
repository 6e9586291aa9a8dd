// Whole-file reads and writes that never block and never read without bound: the tool's input
// files (vectors, matrices, device profiles) and its outputs (--output, --dag, profiles).
#pragma once
#include <cstdint>
#include <string>

namespace mmv {

// Reads the whole of `path`, which must be a regular file of at most `max_bytes` bytes. The
// file is opened with O_NONBLOCK and checked with fstat on the open descriptor, so a FIFO or a
// device (/dev/zero) is refused before anything blocks or is read. Throws model_error: "cannot
// open <what> 'P': <reason>", "<what> 'P' is not a regular file (devices and pipes are not
// read)", "<what> 'P' is N bytes, more than the M bytes mmvram reads", "cannot read ...".
std::string read_regular_file(const std::string& path, const std::string& what, std::uint64_t max_bytes);

// Writes `bytes` to `path` (created, or truncated). Opened with O_NONBLOCK: a FIFO without a
// reader is refused at once instead of waiting for one; once open, the writes block as usual.
// Throws model_error "cannot write <what>: <reason>" (what: e.g. "the DAG file 'g.dot'").
void write_whole_file(const std::string& path, const std::string& bytes, const std::string& what);

}  // namespace mmv
