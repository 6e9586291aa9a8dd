// The option values and checks shared by the `mmvram kernels` command lines (command.cpp), all
// made before the device runs anything: fresh seeds, --dtypes and --dists lists, the kernel
// selection, writable output paths, no positional arguments, and whether a device is there.
// They throw usage_error or io_error (cli.hpp, output.hpp: exit code 2).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "mmvram/harness/random_inputs.hpp"

namespace mmv::tool::kernels {

// A seed for runs without --seed, below 2^62 so that --seed can give it back (printed and
// stored by every command). std::random_device here is the tool's one source of fresh seeds;
// every random draw after it comes from the seed (mmvram/harness/random_inputs.hpp).
std::uint64_t fresh_seed();

// --dtypes: a comma-separated list of f32, i32; usage_error on an unknown type.
std::vector<inputs::dtype> parse_dtypes(const std::string& v);
// --dists: a comma-separated list of distribution names (distribution::parse); usage_error on
// an unknown one.
std::vector<inputs::distribution> parse_dists(const std::string& v);

// A usage_error unless `spec` selects at least one kernel (select_kernels' message).
void require_selection(const std::string& spec);

// Throws io_error (exit 2) unless `path` (given with `option`; empty: none) can be written, so a
// bad output path is refused before the device runs anything, not after. Writable means: an
// existing non-directory the process may write, or a new name in a directory it may write.
// The write itself (json_file.cpp) is checked again.
void require_writable(const std::string& path, const std::string& option);

// The positional handler of a command that takes none: always a usage_error naming p.
[[noreturn]] void no_positional(const std::string& command, const std::string& p);

// Whether a CUDA device is usable; one line on stderr saying why `command` cannot run when not.
bool have_device(const std::string& command);

}  // namespace mmv::tool::kernels
