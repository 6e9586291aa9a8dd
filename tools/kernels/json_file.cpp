#include "json_file.hpp"

#include "build_info.hpp"

#include <fstream>
#include <stdexcept>

namespace mmv::gpu::harness {

void write_json_file(const std::string& path, const json& doc) {
  json stamped = doc;
  if (stamped.is_object()) {
    stamped["commit"] = build_commit();
    stamped["commit_dirty"] = build_dirty();
  }
  std::ofstream f(path);
  if (!f) throw std::runtime_error("cannot write " + path);
  f << stamped.dump(2) << '\n';
  f.close();
  if (!f) throw std::runtime_error("cannot write " + path);
}

}  // namespace mmv::gpu::harness
