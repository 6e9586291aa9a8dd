// The device profile file (JSON, schema "mmvram-profile/1"): reading with every field checked,
// writing at round-trip precision.
#pragma once
#include "mmvram/prediction/time_model.hpp"

#include <string>

namespace mmv {

// Reads / writes a profile. Errors (missing file, not a regular file, over 64 MiB, bad JSON,
// nesting deeper than 64, missing fields, a negative constant, a training time <= 0) throw
// model_error naming the file; write errors too (a FIFO without a reader is refused, files.hpp).
device_profile read_profile(const std::string& path);
void write_profile(const std::string& path, const device_profile& p);
// The same on text: the profile in the JSON `bytes` (`path` names it in errors), and the JSON of
// `p` (model_error for a number that is not finite). The fuzz target fuzz_profile reads these.
device_profile parse_profile(const std::string& bytes, const std::string& path);
std::string profile_json(const device_profile& p);

}  // namespace mmv
