// The JSON files of `mmvram kernels`: nlohmann/json documents, keys in insertion order.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace mmv::gpu::harness {

using json = nlohmann::ordered_json;

// Writes doc to path, indented by two spaces, with a final newline (non-finite numbers become
// null); an object gets two last keys naming the build, "commit" (build_info.hpp) and
// "commit_dirty", so every result belongs to a commit. Throws std::runtime_error naming path
// when it cannot be written.
void write_json_file(const std::string& path, const json& doc);

}  // namespace mmv::gpu::harness
