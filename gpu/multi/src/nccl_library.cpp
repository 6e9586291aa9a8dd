#include "nccl_library.hpp"

#include <dlfcn.h>

#include <string>

#include "mmvram/gpu/runtime/error.hpp"
#include "mmvram/gpu/runtime/library.hpp"

namespace mmv::gpu::multi {
namespace {

void* open_library() {
  try {
    return runtime::load_library("libnccl.so." + std::to_string(NCCL_MAJOR), runtime::symbols::global, "MMVRAM_NCCL_LIBRARY");
  } catch (const cuda_error& e) {
    throw cuda_error(std::string("gpu/multi: ") + e.what());
  }
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
