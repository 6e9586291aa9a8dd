#include "json_file.hpp"

#include <fstream>
#include <stdexcept>

namespace mmv::gpu::harness {

void write_json_file(const std::string& path, const json& doc) {
  std::ofstream f(path);
  if (!f) throw std::runtime_error("cannot write " + path);
  f << doc.dump(2) << '\n';
  f.close();
  if (!f) throw std::runtime_error("cannot write " + path);
}

}  // namespace mmv::gpu::harness
