// The JSON files of `mmvram kernels`: nlohmann/json documents, keys in insertion order.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace mmv::tool::kernels {

using json = nlohmann::ordered_json;

// Writes doc to path, indented by two spaces, with a final newline (non-finite numbers become
// null); an object gets two last keys naming the build, "commit" (build_info.hpp) and
// "commit_dirty", so every result belongs to a commit. Written by the tool's one checked write
// (tools/output.hpp, write_output_file: a FIFO without a reader is refused, never waited on);
// throws tool::io_error "cannot write the JSON file 'PATH': <reason>" when it cannot be written.
void write_json_file(const std::string& path, const json& doc);

// The wall clock now as ISO 8601 UTC (2026-01-31T12:00:00Z): a report's "date_utc".
std::string utc_now();

}  // namespace mmv::tool::kernels
