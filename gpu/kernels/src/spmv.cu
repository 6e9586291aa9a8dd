// Host entry points of CSR SpMV (spmv.hpp): temporary storage (the tiles' path coordinates,
// then their carries), the index type, and one cooperative launch or three (device/spmv.cuh).
#include <algorithm>
#include <atomic>

#include "launch.hpp"
#include "mmvram/gpu/device/spmv.cuh"
#include "mmvram/gpu/spmv.hpp"

namespace mmv::gpu {
namespace {

using P32 = agent::spmv_default_policy<float>::type;
using P64 = agent::spmv_default_policy<double>::type;

// Blocks of spmv_single_kernel<T, P, O, I> resident at once on the current device (0 where the
// device has no cooperative launch), queried once per device.
template <class T, class P, class O, class I>
std::int64_t single_pass_capacity() {
  static std::atomic<std::int64_t> cache[64];  // 0: not queried yet; capacity + 1 after
  int dev = 0;
  detail::check(cudaGetDevice(&dev), "cudaGetDevice");
  if (dev < 64 && cache[dev].load(std::memory_order_relaxed) > 0) return cache[dev].load(std::memory_order_relaxed) - 1;
  int coop = 0, sms = 0, per_sm = 0;
  detail::check(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev), "cudaDeviceGetAttribute");
  detail::check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), "cudaDeviceGetAttribute");
  detail::check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, device::spmv_single_kernel<T, P, O, I>,
                                                              P::threads, 0),
                "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  const std::int64_t capacity = coop ? std::int64_t(sms) * per_sm : 0;
  if (dev < 64) cache[dev].store(capacity + 1, std::memory_order_relaxed);
  return capacity;
}

template <class T, class P, class O, class I>
void run_indexed(const O* row_offsets, const std::int32_t* cols, const T* values, const T* x, T* y, I rows, I nnz,
                 I tiles, void* temp, std::size_t coord_bytes, cudaStream_t stream) {
  auto* coords = static_cast<I*>(temp);
  // 16-byte staging loads where the policy asks for them and values and columns allow them.
  bool vec = P::vector_loads && detail::aligned_to(values, 16) && detail::aligned_to(cols, 16);
  T* carry = reinterpret_cast<T*>(static_cast<char*>(temp) + coord_bytes);
  if (tiles <= single_pass_capacity<T, P, O, I>()) {
    void* args[] = {&row_offsets, &cols, &values, &x, &y, &rows, &nnz, &tiles, &coords, &carry, &vec};
    detail::check(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(device::spmv_single_kernel<T, P, O, I>),
                                              dim3(unsigned(tiles)), dim3(P::threads), args, 0, stream),
                  "spmv_csr cooperative launch");
    return;
  }
  constexpr int search_warps = 8;
  const unsigned search_blocks = unsigned((tiles + 1 + search_warps - 1) / search_warps);
  device::spmv_search_kernel<P><<<search_blocks, 32 * search_warps, 0, stream>>>(row_offsets, rows, nnz, tiles, coords);
  detail::check(cudaGetLastError(), "spmv_csr search launch");
  device::spmv_kernel<T, P><<<unsigned(tiles), P::threads, 0, stream>>>(row_offsets, cols, values, x, y, rows, nnz,
                                                                        coords, carry, vec);
  detail::check(cudaGetLastError(), "spmv_csr launch");
  device::spmv_fixup_kernel<T><<<unsigned((tiles + 7) / 8), 256, 0, stream>>>(y, rows, tiles, coords, carry);
  detail::check(cudaGetLastError(), "spmv_csr fix-up launch");
}

// Policy P; path coordinates in int32 where every diagonal and the last tile's end fit, else int64.
template <class T, class P, class O>
void run_policy(const O* row_offsets, const std::int32_t* cols, const T* values, const T* x, T* y, std::int64_t rows,
         std::int64_t nnz, void* temp, std::size_t& temp_bytes, cudaStream_t stream) {
  if (rows < 0 || nnz < 0) throw cuda_error("mmvram spmv_csr: rows and nnz must be non-negative");
  const std::int64_t tiles = rows > 0 ? (rows + nnz + P::tile_items - 1) / P::tile_items : 0;
  if (tiles >= (std::int64_t(1) << 31)) throw cuda_error("mmvram spmv_csr: matrix too large for one grid");
  const bool narrow = rows + nnz + P::tile_items < (std::int64_t(1) << 31);
  const std::size_t index_bytes = narrow ? sizeof(std::int32_t) : sizeof(std::int64_t);
  const std::size_t coord_bytes = (std::size_t(tiles + 1) * index_bytes + 255) / 256 * 256;
  const std::size_t need = coord_bytes + std::size_t(tiles) * sizeof(T) + 256;
  if (temp == nullptr) {
    temp_bytes = need;
    return;
  }
  if (temp_bytes < need) throw cuda_error("mmvram spmv_csr: temporary storage too small");
  if (!detail::aligned_to(temp, 16)) throw cuda_error("mmvram spmv_csr: temporary storage not 16-byte aligned");
  if (tiles == 0) return;
  if (narrow)
    run_indexed<T, P, O, std::int32_t>(row_offsets, cols, values, x, y, std::int32_t(rows), std::int32_t(nnz),
                                    std::int32_t(tiles), temp, coord_bytes, stream);
  else
    run_indexed<T, P, O, std::int64_t>(row_offsets, cols, values, x, y, rows, nnz, tiles, temp, coord_bytes, stream);
}

template <class T, class O>
void run(const O* row_offsets, const std::int32_t* cols, const T* values, const T* x, T* y, std::int64_t rows,
         std::int64_t nnz, void* temp, std::size_t& temp_bytes, cudaStream_t stream) {
  run_policy<T, typename agent::spmv_default_policy<T>::type>(row_offsets, cols, values, x, y, rows, nnz, temp,
                                                              temp_bytes, stream);
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
void spmv_csr(const std::int32_t* row_offsets, const std::int32_t* col_indices, const float* values, const float* x,
              float* y, std::int64_t rows, std::int64_t nnz, void* temp, std::size_t& temp_bytes, cudaStream_t stream) {
  run(row_offsets, col_indices, values, x, y, rows, nnz, temp, temp_bytes, stream);
}
void spmv_csr(const std::int32_t* row_offsets, const std::int32_t* col_indices, const double* values,
              const double* x, double* y, std::int64_t rows, std::int64_t nnz, void* temp, std::size_t& temp_bytes,
              cudaStream_t stream) {
  run(row_offsets, col_indices, values, x, y, rows, nnz, temp, temp_bytes, stream);
}

// Along a product's path: its rounding, at most `items` additions in its thread's run, 5 in the
// warp scan, 8 + 1 across warps, 1 adding the thread's incoming carry, the fix-up's additions
// (a row of L entries spans at most c = ceil((L + 1) / tile_items) + 1 tiles; a run of n <= 256
// carries: ceil(n / 32) by a lane and 5 in the butterfly; of n > 256: ceil(n / 256) by a thread,
// 5 in the butterfly and 3 over the warps), and 1 into y. Every addition adds two sums of
// disjoint products (or an exact 0), so the path is also at most L roundings long (a binary
// tree over L products). The fp32 and fp64 policies differ, so the depth is the larger of theirs.
namespace {
template <class P>
std::int64_t structural_depth(std::int64_t length) {
  const std::int64_t carries = (length + 1 + P::tile_items - 1) / P::tile_items;
  const std::int64_t short_run = std::min<std::int64_t>(carries, device::kLongRun);
  const std::int64_t fixup = std::max<std::int64_t>((short_run + 31) / 32 + 5,
                                                    carries > device::kLongRun ? (carries + 255) / 256 + 8 : 0);
  return 1 + P::items + 5 + 9 + 1 + fixup + 1;
}
}  // namespace

std::int64_t spmv_rounding_depth(std::int64_t length) {
  if (length <= 0) return 0;
  const std::int64_t structural = std::max(structural_depth<P32>(length), structural_depth<P64>(length));
  return length < structural ? length : structural;
}

}  // namespace mmv::gpu
