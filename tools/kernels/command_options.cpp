// The option values and checks of the `mmvram kernels` command lines (command_options.hpp).
#include "command_options.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <random>

#include "cli.hpp"
#include "kernels.hpp"
#include "mmvram/gpu/runtime/device.hpp"
#include "output.hpp"

namespace mmv::tool::kernels {

std::uint64_t fresh_seed() {
  std::random_device rd;
  return ((static_cast<std::uint64_t>(rd()) << 32) ^ rd()) >> 2;
}

std::vector<dtype> parse_dtypes(const std::string& v) {
  std::vector<dtype> out;
  for (const auto& item : split(v, ',')) {
    const auto t = inputs::parse_dtype(item);
    if (!t) throw usage_error("--dtypes: unknown type '" + item + "' (f32, i32)");
    out.push_back(*t);
  }
  return out;
}

std::vector<distribution> parse_dists(const std::string& v) {
  std::vector<distribution> out;
  for (const auto& item : split(v, ',')) {
    const auto d = distribution::parse(item);
    if (!d) throw usage_error("--dists: unknown distribution '" + item + "' (see mmvram help)");
    out.push_back(*d);
  }
  return out;
}

void require_selection(const std::string& spec) {
  std::string err;
  if (select_kernels(spec, err).empty()) throw usage_error("--kernels: " + err);
}

void require_writable(const std::string& path, const std::string& option) {
  if (path.empty()) return;
  const std::string what = "cannot write " + option + " '" + path + "': ";
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw io_error(what + "it is a directory");
    if (::access(path.c_str(), W_OK) != 0) throw io_error(what + std::strerror(errno));
    return;
  }
  if (errno != ENOENT) throw io_error(what + std::strerror(errno));
  const auto slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  if (::access(dir.c_str(), W_OK | X_OK) != 0) throw io_error(what + std::strerror(errno));
}

void no_positional(const std::string& command, const std::string& p) {
  throw usage_error(command + " takes no argument (got '" + p + "')");
}

bool have_device(const std::string& command) {
  runtime::device_info dev;
  std::string why;
  if (runtime::current_device(dev, why)) return true;
  std::cerr << "mmvram: error: no CUDA device (" << why << "); " << command << " needs a GPU\n";
  return false;
}

}  // namespace mmv::tool::kernels
