// The JSON files of `mmvram kernels`: nlohmann/json documents, keys in insertion order.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace mmv::gpu::harness {

using json = nlohmann::ordered_json;

// Writes doc to path, indented by two spaces, with a final newline (non-finite numbers become
// null). Throws std::runtime_error naming path when it cannot be written.
void write_json_file(const std::string& path, const json& doc);

}  // namespace mmv::gpu::harness
