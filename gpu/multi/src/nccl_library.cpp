#include "nccl_library.hpp"

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <cstdlib>
#include <string>

#include "mmvram/gpu/runtime/error.hpp"

namespace mmv::gpu::multi {
namespace {

void* open_library() {
  std::string tried;
  if (const char* path = std::getenv("MMVRAM_NCCL_LIBRARY"); path != nullptr && *path != '\0') {
    if (void* h = dlopen(path, RTLD_NOW | RTLD_GLOBAL)) return h;
    tried = dlerror();
  }
  const std::string name = "libnccl.so." + std::to_string(NCCL_MAJOR);
  if (void* h = dlopen(name.c_str(), RTLD_NOW | RTLD_GLOBAL)) return h;
  tried += (tried.empty() ? "" : "; ") + std::string(dlerror());
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&cudaGetDeviceCount), &info) != 0 && info.dli_fname != nullptr) {
    std::string dir = info.dli_fname;
    dir.erase(dir.find_last_of('/') + 1);
    if (void* h = dlopen((dir + name).c_str(), RTLD_NOW | RTLD_GLOBAL)) return h;
  }
  throw cuda_error("gpu/multi: cannot load NCCL (" + name + ", or set MMVRAM_NCCL_LIBRARY): " + tried);
}

template <class F>
F symbol(void* library, const char* name) {
  void* p = dlsym(library, name);
  if (p == nullptr) throw cuda_error(std::string("gpu/multi: NCCL has no symbol ") + name);
  return reinterpret_cast<F>(p);
}

}  // namespace

const nccl_library& nccl() {
  static const nccl_library lib = [] {
    void* h = open_library();
    return nccl_library{symbol<decltype(nccl_library::comm_init_all)>(h, "ncclCommInitAll"),
                        symbol<decltype(nccl_library::comm_destroy)>(h, "ncclCommDestroy"),
                        symbol<decltype(nccl_library::comm_count)>(h, "ncclCommCount"),
                        symbol<decltype(nccl_library::comm_user_rank)>(h, "ncclCommUserRank"),
                        symbol<decltype(nccl_library::comm_cu_device)>(h, "ncclCommCuDevice"),
                        symbol<decltype(nccl_library::all_gather)>(h, "ncclAllGather"),
                        symbol<decltype(nccl_library::group_start)>(h, "ncclGroupStart"),
                        symbol<decltype(nccl_library::group_end)>(h, "ncclGroupEnd"),
                        symbol<decltype(nccl_library::error_string)>(h, "ncclGetErrorString")};
  }();
  return lib;
}

}  // namespace mmv::gpu::multi
