// The device profile file (JSON, schema "mmvram-profile/1"): reading with every field checked,
// writing at round-trip precision (nlohmann/json).
#pragma once
#include "mmvram/prediction/time_model.hpp"

#include <string>

namespace mmv {

// Reads the profile at `path`: a regular file (a FIFO or device is refused without blocking) of
// at most 64 MiB, parsed as parse_profile does. Errors (missing or unreadable file, too large,
// any error of parse_profile) throw model_error naming the file.
device_profile read_profile(const std::string& path);
// Writes profile_json(p) to `path` (a FIFO without a reader is refused, files.hpp). model_error
// naming the file when it cannot be written or a number of `p` is not finite.
void write_profile(const std::string& path, const device_profile& p);
// The profile in the JSON text `bytes` (RFC 8259, nesting at most 64 deep, no duplicate keys;
// `path` names it in errors). Every field is checked: strings, numbers >= 0, training times > 0,
// counts whole and exact in their range. Any violation is one model_error, one line.
device_profile parse_profile(const std::string& bytes, const std::string& path);
// The JSON text of `p` (schema "mmvram-profile/1", numbers at round-trip precision), which
// parse_profile reads back unchanged. model_error for a number that is not finite.
std::string profile_json(const device_profile& p);

}  // namespace mmv
