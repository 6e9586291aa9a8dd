// runtime::load_library (include/mmvram/gpu/runtime/library.hpp).
#include "mmvram/gpu/runtime/library.hpp"

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <cstdlib>

#include "mmvram/gpu/runtime/error.hpp"

namespace mmv::gpu::runtime {

void* load_library(const std::string& name, symbols visibility, const char* env_override) {
  const int mode = RTLD_NOW | (visibility == symbols::global ? RTLD_GLOBAL : RTLD_LOCAL);
  std::string tried;
  const auto attempt = [&](const std::string& path) {
    void* h = dlopen(path.c_str(), mode);
    if (h == nullptr) tried += (tried.empty() ? "" : "; ") + std::string(dlerror());
    return h;
  };
  const char* path = env_override != nullptr ? std::getenv(env_override) : nullptr;
  if (path != nullptr && *path != '\0')
    if (void* h = attempt(path)) return h;
  if (void* h = attempt(name)) return h;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&cudaGetDeviceCount), &info) != 0 && info.dli_fname != nullptr) {
    std::string dir = info.dli_fname;
    dir.erase(dir.find_last_of('/') + 1);
    if (void* h = attempt(dir + name)) return h;
  }
  const std::string hint = env_override != nullptr ? std::string(" (or set ") + env_override + " to its path)" : "";
  throw cuda_error("cannot load " + name + hint + ": " + tried);
}

}  // namespace mmv::gpu::runtime
