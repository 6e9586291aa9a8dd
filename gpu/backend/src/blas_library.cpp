#include "blas_library.hpp"

#include <dlfcn.h>

#include "mmvram/gpu/runtime/error.hpp"
#include "mmvram/gpu/runtime/library.hpp"
#include "mmvram/model/types.hpp"

#include <stdexcept>
#include <string>

namespace mmv::cuda_ops {
namespace {

// The versioned cuBLAS (runtime::load_library), its failure as the machine's error.
void* open_library() {
  try {
    return gpu::runtime::load_library("libcublas.so." + std::to_string(CUBLAS_VER_MAJOR), gpu::runtime::symbols::local);
  } catch (const gpu::cuda_error& e) {
    throw model_error(std::string("cuda backend: ") + e.what());
  }
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
