// Device layer: CSR SpMV in three launches. spmv_search_kernel places the tiles on the merge
// path, spmv_kernel runs one tile per block (agent/spmv), and spmv_fixup_kernel adds each
// tile's carry to the row it belongs to. The carries cross tiles by this fix-up, not by the
// look-back chain of the scans (tile/lookback): a chain word holds a 32-bit value beside its
// status, which fp64 does not fit, and a fix-up reads one value per tile (1/3840 of the path in
// fp32, 1/1792 in fp64).
#pragma once
#include <cstdint>

#include "mmvram/gpu/agent/spmv.cuh"

namespace mmv::gpu::device {

// merge_path_row(row_ends, rows, 0, nnz, d) by one warp: each step the 32 lanes probe 32 points
// of [lo, hi) at once and the ballot keeps the gap where the predicate turns, so a search over
// 10^7 rows is 5 dependent loads, not 24 (the binary search's, latency bound).
__device__ __forceinline__ std::int64_t merge_path_row_warp(const std::int64_t* row_ends, std::int64_t rows,
                                                            std::int64_t nnz, std::int64_t d, int lane) {
  std::int64_t lo = d > nnz ? d - nnz : 0, hi = d < rows ? d : rows;
  while (lo < hi) {
    const std::int64_t p = lo + (hi - lo) * lane / 32;  // p_0 = lo, all < hi
    const unsigned taken = __ballot_sync(~0u, row_ends[p] <= d - 1 - p);  // row end p on the path before d
    const int c = __popc(taken);  // the predicate is monotone: lanes 0 .. c - 1 hold it
    if (c == 0) break;            // not even at lo: the answer is lo
    const std::int64_t next_hi = c < 32 ? lo + (hi - lo) * c / 32 : hi;
    lo = lo + (hi - lo) * (c - 1) / 32 + 1, hi = next_hi;
  }
  return lo;
}

// coords[t] = row coordinate of diagonal min(t * tile_items, rows + nnz), t = 0 .. tiles; one
// warp per t.
template <class P>
__global__ void spmv_search_kernel(const std::int64_t* row_offsets, std::int64_t rows, std::int64_t nnz,
                                   std::int64_t tiles, std::int64_t* coords) {
  const std::int64_t t = (std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  if (t > tiles) return;
  const std::int64_t d = t * P::tile_items < rows + nnz ? t * P::tile_items : rows + nnz;
  const std::int64_t i = merge_path_row_warp(row_offsets + 1, rows, nnz, d, threadIdx.x & 31);
  if ((threadIdx.x & 31) == 0) coords[t] = i;
}

// One tile per block: the rows that end in it, and its carry (agent/spmv).
template <class T, class P>
__global__ void __launch_bounds__(P::threads)
    spmv_kernel(const std::int64_t* row_offsets, const std::int32_t* cols, const T* values, const T* x, T* y,
                std::int64_t rows, std::int64_t nnz, const std::int64_t* coords, T* carry, bool vec) {
  using agent_t = agent::spmv_agent<T, P>;
  __shared__ typename agent_t::temp_storage s;
  agent_t{s, row_offsets, cols, values, x, y, carry, rows, nnz, coords, vec}.consume_tile(blockIdx.x);
}

// A fix-up lane's share in blocks of U strided loads, issued before their in-order adds.
template <int U, class T>
__device__ __forceinline__ void fixup_share(const T* carry, std::int64_t lo, std::int64_t& u, T& acc) {
  for (; u + 32 * (U - 1) + 1 < lo; u += 32 * U) {
    T c[U];
#pragma unroll
    for (int k = 0; k < U; ++k) c[k] = carry[u + 32 * k];
#pragma unroll
    for (int k = 0; k < U; ++k) acc += c[k];
  }
}

// One warp per tile t. The first tile of each run of tiles carrying the same row r (carry row
// coords[t + 1] < rows) sums the run's carries (each lane its strided share in order, then a
// butterfly) and adds the sum to y[r]: y[r] = (r's sum in its last tile) + (that carry sum).
template <class T>
__global__ void spmv_fixup_kernel(T* y, std::int64_t rows, std::int64_t tiles, const std::int64_t* coords,
                                  const T* carry) {
  const int lane = threadIdx.x & 31;
  const std::int64_t t = (std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  if (t >= tiles) return;
  const std::int64_t r = coords[t + 1];
  if (r >= rows || (t > 0 && coords[t] == r)) return;
  std::int64_t lo = t + 2, hi = tiles;  // the first q > t + 1 with coords[q] > r (coords[tiles] = rows)
  while (lo < hi) {
    const std::int64_t mid = (lo + hi) >> 1;
    if (coords[mid] <= r) lo = mid + 1;
    else hi = mid;
  }
  // Tiles t .. lo - 2, each lane its strided share in order; the loads go 32, then 8 at a time
  // (the adds stay in order: the same sum as one at a time).
  T acc = T(0);
  std::int64_t u = t + lane;
  fixup_share<32>(carry, lo, u, acc);
  fixup_share<8>(carry, lo, u, acc);
  for (; u + 1 < lo; u += 32) acc += carry[u];
#pragma unroll
  for (int o = 16; o > 0; o /= 2) acc += __shfl_xor_sync(~0u, acc, o);
  if (lane == 0) y[r] += acc;
}

}  // namespace mmv::gpu::device
