// cuSPARSE's SpMV (cusparseSpMV on CSR), the rival of mmv::gpu::spmv_csr (mmvram/gpu/spmv.hpp).
// Device pointers; CSR with int32 row offsets and int32 column indices (cuSPARSE's uniform
// index types, the smallest it takes); errors throw mmv::gpu::cuda_error naming the call.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>

#include "mmvram/gpu/runtime/error.hpp"

namespace mmv::gpu::baselines {

// CUSPARSE_SPMV_ALG_DEFAULT or CUSPARSE_SPMV_CSR_ALG2 (merge-path load balance).
enum class cusparse_spmv_alg { default_alg, csr_merge };
// "cusparse_default" or "cusparse_csr_alg2".
const char* cusparse_spmv_alg_name(cusparse_spmv_alg a);

// One prepared y = A·x: the constructor creates the handle and descriptors, queries the buffer
// size, allocates it and runs cusparseSpMV_preprocess (all outside any timed region; an
// algorithm for which cuSPARSE answers NOT_SUPPORTED runs unpreprocessed); run() is one
// cusparseSpMV on `stream`. The pointers must stay valid for the object's lifetime.
class cusparse_spmv {
 public:
  cusparse_spmv(cusparse_spmv_alg alg, const std::int32_t* row_offsets, const std::int32_t* cols, const float* values,
                const float* x, float* y, std::int64_t rows, std::int64_t columns, std::int64_t nnz,
                cudaStream_t stream = nullptr);
  cusparse_spmv(cusparse_spmv_alg alg, const std::int32_t* row_offsets, const std::int32_t* cols, const double* values,
                const double* x, double* y, std::int64_t rows, std::int64_t columns, std::int64_t nnz,
                cudaStream_t stream = nullptr);
  ~cusparse_spmv();
  cusparse_spmv(const cusparse_spmv&) = delete;
  cusparse_spmv& operator=(const cusparse_spmv&) = delete;
  void run();
  std::size_t buffer_bytes() const;  // the external buffer cuSPARSE asked for
  bool preprocessed() const;         // cusparseSpMV_preprocess ran

 private:
  struct state;
  std::unique_ptr<state> s_;
};

}  // namespace mmv::gpu::baselines
