// Host entry points of CSR SpMV (spmv.hpp): temporary storage (the tiles' path coordinates,
// then their carries) and the three launches of device/spmv.cuh.
#include <algorithm>

#include "launch.hpp"
#include "mmvram/gpu/device/spmv.cuh"
#include "mmvram/gpu/spmv.hpp"

namespace mmv::gpu {
namespace {

using P32 = agent::spmv_default_policy<float>::type;
using P64 = agent::spmv_default_policy<double>::type;

template <class T>
void run(const std::int64_t* row_offsets, const std::int32_t* cols, const T* values, const T* x, T* y,
         std::int64_t rows, std::int64_t nnz, void* temp, std::size_t& temp_bytes, cudaStream_t stream) {
  using P = typename agent::spmv_default_policy<T>::type;
  if (rows < 0 || nnz < 0) throw cuda_error("mmvram spmv_csr: rows and nnz must be non-negative");
  const std::int64_t tiles = rows > 0 ? (rows + nnz + P::tile_items - 1) / P::tile_items : 0;
  if (tiles >= (std::int64_t(1) << 31)) throw cuda_error("mmvram spmv_csr: matrix too large for one grid");
  const std::size_t coord_bytes = (std::size_t(tiles + 1) * sizeof(std::int64_t) + 255) / 256 * 256;
  const std::size_t need = coord_bytes + std::size_t(tiles) * sizeof(T) + 256;
  if (temp == nullptr) {
    temp_bytes = need;
    return;
  }
  if (temp_bytes < need) throw cuda_error("mmvram spmv_csr: temporary storage too small");
  if (!detail::aligned_to(temp, 16)) throw cuda_error("mmvram spmv_csr: temporary storage not 16-byte aligned");
  if (tiles == 0) return;
  auto* coords = static_cast<std::int64_t*>(temp);
  // 16-byte staging loads where the policy asks for them and values and columns allow them.
  const bool vec = P::vector_loads && detail::aligned_to(values, 16) && detail::aligned_to(cols, 16);
  T* carry = reinterpret_cast<T*>(static_cast<char*>(temp) + coord_bytes);
  constexpr int search_warps = 8, fixup_warps = 8;
  const unsigned search_blocks = unsigned((tiles + 1 + search_warps - 1) / search_warps);
  device::spmv_search_kernel<P><<<search_blocks, 32 * search_warps, 0, stream>>>(row_offsets, rows, nnz, tiles, coords);
  detail::check(cudaGetLastError(), "spmv_csr search launch");
  device::spmv_kernel<T, P><<<unsigned(tiles), P::threads, 0, stream>>>(row_offsets, cols, values, x, y, rows, nnz,
                                                                        coords, carry, vec);
  detail::check(cudaGetLastError(), "spmv_csr launch");
  if (tiles > 1) {
    device::spmv_fixup_kernel<T><<<unsigned((tiles + fixup_warps - 1) / fixup_warps), 32 * fixup_warps, 0, stream>>>(
        y, rows, tiles, coords, carry);
    detail::check(cudaGetLastError(), "spmv_csr fix-up launch");
  }
}

}  // namespace

void spmv_csr(const std::int64_t* row_offsets, const std::int32_t* col_indices, const float* values, const float* x,
              float* y, std::int64_t rows, std::int64_t nnz, void* temp, std::size_t& temp_bytes, cudaStream_t stream) {
  run(row_offsets, col_indices, values, x, y, rows, nnz, temp, temp_bytes, stream);
}

void spmv_csr(const std::int64_t* row_offsets, const std::int32_t* col_indices, const double* values,
              const double* x, double* y, std::int64_t rows, std::int64_t nnz, void* temp, std::size_t& temp_bytes,
              cudaStream_t stream) {
  run(row_offsets, col_indices, values, x, y, rows, nnz, temp, temp_bytes, stream);
}

// Along a product's path: its rounding, at most `items` additions in its thread's run, 5 in the
// warp scan, 8 + 1 across warps, 1 adding the thread's incoming carry, and in the fix-up one per
// 32 carries of the row (a row of L entries spans at most ceil((L + 1) / tile_items) + 1 tiles),
// 5 in the butterfly and 1 into y. Every addition adds two sums of disjoint products (or an exact
// 0), so the path is also at most L roundings long (a binary tree over L products).
// The fp32 and fp64 policies differ, so the depth is the larger of theirs (a bound for both).
namespace {
template <class P>
std::int64_t structural_depth(std::int64_t length) {
  const std::int64_t carries = (length + 1 + P::tile_items - 1) / P::tile_items;
  return 1 + P::items + 5 + 9 + 1 + (carries + 31) / 32 + 5 + 1;
}
}  // namespace

std::int64_t spmv_rounding_depth(std::int64_t length) {
  if (length <= 0) return 0;
  const std::int64_t structural = std::max(structural_depth<P32>(length), structural_depth<P64>(length));
  return length < structural ? length : structural;
}

}  // namespace mmv::gpu
