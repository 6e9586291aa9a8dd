#include "json_file.hpp"

#include "build_info.hpp"
#include "output.hpp"  // tools/output.hpp: write_output_file, the tool's one checked write

namespace mmv::tool::kernels {

void write_json_file(const std::string& path, const json& doc) {
  json stamped = doc;
  if (stamped.is_object()) {
    stamped["commit"] = build_commit();
    stamped["commit_dirty"] = build_dirty();
  }
  tool::write_output_file(path, stamped.dump(2) + '\n', "the JSON file '" + path + "'");
}

}  // namespace mmv::tool::kernels
