#include "blas_library.hpp"

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include "mmvram/model/types.hpp"

#include <stdexcept>
#include <string>

namespace mmv::cuda_ops {
namespace {

// dlopen of the versioned cuBLAS, by name first, then from libcudart's directory.
void* open_library() {
  const std::string name = "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR);
  if (void* h = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL)) return h;
  const std::string first_error = dlerror();
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&cudaGetDeviceCount), &info) != 0 && info.dli_fname != nullptr) {
    std::string dir = info.dli_fname;
    dir.erase(dir.find_last_of('/') + 1);
    if (void* h = dlopen((dir + name).c_str(), RTLD_NOW | RTLD_LOCAL)) return h;
  }
  throw model_error("cuda backend: cannot load " + name + " (" + first_error + ")");
}

template <class F>
F symbol(void* library, const char* name) {
  void* p = dlsym(library, name);
  if (p == nullptr) throw model_error(std::string("cuda backend: cuBLAS has no symbol ") + name);
  return reinterpret_cast<F>(p);
}

}  // namespace

const blas_library& blas() {
  static const blas_library lib = [] {
    void* h = open_library();
    return blas_library{symbol<decltype(blas_library::create)>(h, "cublasCreate_v2"),
                        symbol<decltype(blas_library::set_math_mode)>(h, "cublasSetMathMode"),
                        symbol<decltype(blas_library::set_stream)>(h, "cublasSetStream_v2"),
                        symbol<decltype(blas_library::dgemm)>(h, "cublasDgemm_v2")};
  }();
  return lib;
}

}  // namespace mmv::cuda_ops
