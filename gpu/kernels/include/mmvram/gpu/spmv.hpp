// Host API of the fused CSR sparse matrix-vector product (gpu/kernels/, docs/kernels.md "SpMV"):
// SCD's application GATHER (x[col]) → MULT → segmented sum with a segment start at every row
// start, fused into one pass over the nonzeros. Device pointers, CUB's temporary-storage
// convention and errors as api.hpp. CSR: row_offsets int32 or int64 (rows + 1 entries,
// row_offsets[0] = 0, non-decreasing, ending at nnz), col_indices int32 in [0, cols), values, x
// and y one type.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "mmvram/gpu/runtime/error.hpp"

namespace mmv::gpu {

// y[r] = sum over the row's entries of values[e] * x[col_indices[e]]; empty rows give 0; rows = 0
// writes nothing. Arrays need only their elements' alignment; temp, 16 bytes. Merge-path load
// balance: each block takes an equal share of the row ends and nonzeros together, so long or
// empty rows cost no imbalance. Sums: one binary tree per row over its products (a thread's run
// in column order, the block's segmented carry scan, then the carries of earlier tiles added by
// a fix-up), the same order on every run and for either offset type.
void spmv_csr(const std::int64_t* row_offsets, const std::int32_t* col_indices, const float* values,
              const float* x, float* y, std::int64_t rows, std::int64_t nnz, void* temp,
              std::size_t& temp_bytes, cudaStream_t stream = nullptr);
void spmv_csr(const std::int64_t* row_offsets, const std::int32_t* col_indices, const double* values,
              const double* x, double* y, std::int64_t rows, std::int64_t nnz, void* temp,
              std::size_t& temp_bytes, cudaStream_t stream = nullptr);
void spmv_csr(const std::int32_t* row_offsets, const std::int32_t* col_indices, const float* values,
              const float* x, float* y, std::int64_t rows, std::int64_t nnz, void* temp,
              std::size_t& temp_bytes, cudaStream_t stream = nullptr);
void spmv_csr(const std::int32_t* row_offsets, const std::int32_t* col_indices, const double* values,
              const double* x, double* y, std::int64_t rows, std::int64_t nnz, void* temp,
              std::size_t& temp_bytes, cudaStream_t stream = nullptr);

// Rounding depth k of spmv_csr for a row of `length` entries: the most roundings (the product
// and the additions) on any product's path to y[r], so |y[r] - exact| <= gamma_k * sum |a x|
// with gamma_k = k u / (1 - k u), u the unit roundoff (docs/kernels.md "SpMV: error bound").
std::int64_t spmv_rounding_depth(std::int64_t length);

}  // namespace mmv::gpu
