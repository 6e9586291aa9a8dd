// cuBLAS, loaded on first use (dlopen) rather than at program start: the tools that link the
// cuda backend map its ~200 MiB only when a machine on the cuda backend multiplies on the MMU.
#pragma once
#include <cublas_v2.h>

namespace mmv::cuda_ops {

// The four cuBLAS entry points the backend calls.
struct blas_library {
  decltype(&cublasCreate_v2) create;
  decltype(&cublasSetMathMode) set_math_mode;
  decltype(&cublasSetStream_v2) set_stream;
  decltype(&cublasDgemm_v2) dgemm;
};

// Loads libcublas.so.<major> (from the loader's paths, else beside libcudart) once per process;
// throws model_error (the machine's error, like every cuda backend failure) naming the library
// and dlerror() when it or a symbol is missing.
const blas_library& blas();

}  // namespace mmv::cuda_ops
