// The inputs of one run: drawn at random from a seed (the input library's run_inputs.hpp), or
// read from files (plain text or binary vectors, Matrix Market matrices). Bad options and files
// raise usage_error (exit code 2).
#pragma once
#include "cli.hpp"

#include "mmvram/harness/registry.hpp"

#include <string>
#include <vector>

namespace mmv::tool {

// Builds the input `entry` consumes on a machine of the given number format (--mode) and word
// width: checks the options (usage_error for one the run would ignore, a size past the limits
// or the host's memory), then reads the files or draws inputs::random_run_input.
algorithm_input make_input(const algorithm_entry& entry, const input_options& options, number_format format,
                           int bits);

// A vector file: binary when the name ends in .u8 .i32 .i64 .f32 .f64 (raw little-endian
// elements of that type), otherwise text (numbers separated by spaces, commas or newlines;
// '#' starts a comment). `what` names the file in error messages. The file must be a regular
// file (not a device or a pipe, whose size is unbounded).
std::vector<word> read_words(const std::string& path, const std::string& what);
std::vector<real> read_reals(const std::string& path, const std::string& what);

// Reads a Matrix Market coordinate file into CSR, turning its errors into usage_error. Before
// parsing, its size line is checked: sides above 2^28, more entries than the file's bytes can
// hold, or a run of more than the machine's memory (entries times `elements_per_entry`) are
// refused; so are integer entries beyond 2^53, which the CSR's doubles would round.
csr_matrix read_matrix_file(const std::string& path, int elements_per_entry);

}  // namespace mmv::tool
