// cusparseSpMV on CSR (cusparse_spmv.hpp): handle, descriptors and buffer made once, the
// product alone in run().
#include "mmvram/gpu/baselines/cusparse_spmv.hpp"

#include <cusparse.h>

#include <string>

namespace mmv::gpu::baselines {
namespace {

void check_sparse(cusparseStatus_t s, const char* what) {
  if (s != CUSPARSE_STATUS_SUCCESS)
    throw cuda_error(std::string("cuSPARSE ") + what + ": " + cusparseGetErrorString(s));
}

cusparseSpMVAlg_t to_alg(cusparse_spmv_alg a) {
  return a == cusparse_spmv_alg::csr_merge ? CUSPARSE_SPMV_CSR_ALG2 : CUSPARSE_SPMV_ALG_DEFAULT;
}

}  // namespace

const char* cusparse_spmv_alg_name(cusparse_spmv_alg a) {
  return a == cusparse_spmv_alg::csr_merge ? "cusparse_csr_alg2" : "cusparse_default";
}

struct cusparse_spmv::state {
  cusparseHandle_t handle = nullptr;
  cusparseSpMatDescr_t a = nullptr;
  cusparseDnVecDescr_t x = nullptr, y = nullptr;
  void* buffer = nullptr;
  std::size_t bytes = 0;
  bool preprocessed = false;
  cudaDataType type = CUDA_R_32F;
  cusparseSpMVAlg_t alg = CUSPARSE_SPMV_ALG_DEFAULT;
  double one = 1.0, zero = 0.0;
  float onef = 1.0f, zerof = 0.0f;
  const void* alpha() const { return type == CUDA_R_32F ? static_cast<const void*>(&onef) : &one; }
  const void* beta() const { return type == CUDA_R_32F ? static_cast<const void*>(&zerof) : &zero; }

  state(cusparse_spmv_alg al, cudaDataType t, const std::int32_t* row_offsets, const std::int32_t* cols,
        const void* values, const void* xv, void* yv, std::int64_t rows, std::int64_t columns, std::int64_t nnz,
        cudaStream_t stream)
      : type(t), alg(to_alg(al)) {
    try {
      check_sparse(cusparseCreate(&handle), "cusparseCreate");
      check_sparse(cusparseSetStream(handle, stream), "cusparseSetStream");
      check_sparse(cusparseCreateCsr(&a, rows, columns, nnz, const_cast<std::int32_t*>(row_offsets),
                                     const_cast<std::int32_t*>(cols), const_cast<void*>(values), CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, t),
                   "cusparseCreateCsr");
      check_sparse(cusparseCreateDnVec(&x, columns, const_cast<void*>(xv), t), "cusparseCreateDnVec");
      check_sparse(cusparseCreateDnVec(&y, rows, yv, t), "cusparseCreateDnVec");
      check_sparse(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha(), a, x, beta(), y, t, alg,
                                           &bytes),
                   "cusparseSpMV_bufferSize");
      if (bytes > 0) runtime::check(cudaMalloc(&buffer, bytes), "cudaMalloc(cuSPARSE buffer)");
      const cusparseStatus_t pre = cusparseSpMV_preprocess(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha(), a, x,
                                                           beta(), y, t, alg, buffer);
      if (pre != CUSPARSE_STATUS_NOT_SUPPORTED) check_sparse(pre, "cusparseSpMV_preprocess");
      preprocessed = pre == CUSPARSE_STATUS_SUCCESS;
    } catch (...) {
      release();
      throw;
    }
  }
  void release() {
    if (y) cusparseDestroyDnVec(y);
    if (x) cusparseDestroyDnVec(x);
    if (a) cusparseDestroySpMat(a);
    if (handle) cusparseDestroy(handle);
    if (buffer) cudaFree(buffer);
    y = x = nullptr, a = nullptr, handle = nullptr, buffer = nullptr;
  }
  ~state() { release(); }
};

cusparse_spmv::cusparse_spmv(cusparse_spmv_alg alg, const std::int32_t* row_offsets, const std::int32_t* cols,
                             const float* values, const float* x, float* y, std::int64_t rows, std::int64_t columns,
                             std::int64_t nnz, cudaStream_t stream)
    : s_(std::make_unique<state>(alg, CUDA_R_32F, row_offsets, cols, values, x, y, rows, columns, nnz, stream)) {}

cusparse_spmv::cusparse_spmv(cusparse_spmv_alg alg, const std::int32_t* row_offsets, const std::int32_t* cols,
                             const double* values, const double* x, double* y, std::int64_t rows,
                             std::int64_t columns, std::int64_t nnz, cudaStream_t stream)
    : s_(std::make_unique<state>(alg, CUDA_R_64F, row_offsets, cols, values, x, y, rows, columns, nnz, stream)) {}

cusparse_spmv::~cusparse_spmv() = default;

void cusparse_spmv::run() {
  check_sparse(cusparseSpMV(s_->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, s_->alpha(), s_->a, s_->x, s_->beta(), s_->y,
                            s_->type, s_->alg, s_->buffer),
               "cusparseSpMV");
}

std::size_t cusparse_spmv::buffer_bytes() const { return s_->bytes; }

bool cusparse_spmv::preprocessed() const { return s_->preprocessed; }

}  // namespace mmv::gpu::baselines
