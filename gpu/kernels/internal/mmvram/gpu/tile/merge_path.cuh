// Tile layer: the merge path of CSR SpMV (Merrill & Garland 2016). The path merges the row ends
// A[i] = row_offsets[i + 1] (i < rows) with the nonzero indices 0 .. nnz - 1: at (i, j) it takes
// the row end of row i when j >= A[i] (all of row i consumed), else nonzero j. Diagonal d of the
// path is the point with i + j = d; equal shares of diagonals are equal shares of work.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

namespace mmv::gpu::tile {

// The row coordinate i of diagonal d (0 <= d <= a_len + b_len): the number of row ends among the
// first d path items, with row ends a[0 .. a_len) and nonzeros b0, b0 + 1, ... (b_len of them).
// Host and device (tests/gpu/test_spmv_check.cpp checks it against a walk of the path).
template <class A>
__host__ __device__ __forceinline__ std::int64_t merge_path_row(A a, std::int64_t a_len, std::int64_t b0, std::int64_t b_len,
                                                       std::int64_t d) {
  std::int64_t lo = d > b_len ? d - b_len : 0, hi = d < a_len ? d : a_len;
  while (lo < hi) {
    const std::int64_t mid = (lo + hi) >> 1;
    if (a[mid] <= b0 + d - 1 - mid) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// The same within one tile, in 32-bit arithmetic (fewer instructions on the device): row ends
// relative to the tile's first nonzero (b0 = 0), a_len + b_len < 2^31.
template <class A>
__host__ __device__ __forceinline__ int merge_path_row32(A a, int a_len, int b_len, int d) {
  int lo = d > b_len ? d - b_len : 0, hi = d < a_len ? d : a_len;
  while (lo < hi) {
    const int mid = (lo + hi) >> 1;
    if (a[mid] <= d - 1 - mid) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

}  // namespace mmv::gpu::tile
