// Device layer: CSR SpMV. A grid that fits on the device at once is one cooperative launch
// (spmv_single_kernel: each block searches its own tile's two coordinates, runs the tile, and
// after a grid-wide barrier the first blocks add the carries); a larger one is three launches
// (spmv_search_kernel, spmv_kernel, spmv_fixup_kernel). The carries cross tiles by this fix-up,
// not by the look-back chain of the scans (tile/lookback): a chain word holds a 32-bit value
// beside its status, which fp64 does not fit, and a fix-up reads one value per tile.
#pragma once
#include <cooperative_groups.h>

#include <cstdint>

#include "mmvram/gpu/agent/spmv.cuh"

namespace mmv::gpu::device {

// merge_path_row(row_ends, rows, 0, nnz, d) by one warp: each step the 32 lanes probe 32 points
// of [lo, hi) at once and the ballot keeps the gap where the predicate turns, so a search over
// 10^7 rows is 5 dependent loads, not 24 (the binary search's, latency bound).
template <class O>
__device__ __forceinline__ std::int64_t merge_path_row_warp(const O* row_ends, std::int64_t rows, std::int64_t nnz,
                                                            std::int64_t d, int lane) {
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

// The row coordinate of diagonal min(t * tile_items, rows + nnz): tile t's first row.
template <class P, class O, class I>
__device__ __forceinline__ I tile_row(const O* row_offsets, I rows, I nnz, I t, int lane) {
  const std::int64_t d = std::int64_t(t) * P::tile_items < std::int64_t(rows) + nnz ? std::int64_t(t) * P::tile_items
                                                                                    : std::int64_t(rows) + nnz;
  return I(merge_path_row_warp(row_offsets + 1, rows, nnz, d, lane));
}

// coords[t] = tile t's first row, t = 0 .. tiles (coords[tiles] = rows); one warp per t.
template <class P, class O, class I>
__global__ void spmv_search_kernel(const O* row_offsets, I rows, I nnz, I tiles, I* coords) {
  const std::int64_t t = (std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  if (t > tiles) return;
  const I i = tile_row<P>(row_offsets, rows, nnz, I(t), threadIdx.x & 31);
  if ((threadIdx.x & 31) == 0) coords[t] = i;
}

// One tile per block: the rows that end in it, and its carry (agent/spmv).
template <class T, class P, class O, class I>
__global__ void __launch_bounds__(P::threads, P::min_blocks)
    spmv_kernel(const O* row_offsets, const std::int32_t* cols, const T* values, const T* x, T* y, I rows, I nnz,
                const I* coords, T* carry, bool vec) {
  using agent_t = agent::spmv_agent<T, P, O, I>;
  __shared__ typename agent_t::temp_storage s;
  const I t = blockIdx.x;
  agent_t{s, row_offsets, cols, values, x, y, carry, rows, nnz, vec}.consume_tile(t, coords[t], coords[t + 1]);
}

// Runs of more than kLongRun carries are summed by the whole block, shorter ones by one warp.
inline constexpr int kLongRun = 256;

// A share of carry[u], carry[u + S], ... below `end` in blocks of U strided loads, issued before
// their in-order adds (the same sum as one at a time).
template <int S, int U, class T, class I>
__device__ __forceinline__ void fixup_share(const T* carry, I end, I& u, T& acc) {
  for (; u + S * (U - 1) < end; u += S * U) {
    T c[U];
#pragma unroll
    for (int k = 0; k < U; ++k) c[k] = carry[u + S * k];
#pragma unroll
    for (int k = 0; k < U; ++k) acc += c[k];
  }
}
template <int S, class T, class I>
__device__ __forceinline__ T strided_sum(const T* carry, I u, I end) {
  T acc = T(0);
  fixup_share<S, 32>(carry, end, u, acc);
  fixup_share<S, 8>(carry, end, u, acc);
  for (; u < end; u += S) acc += carry[u];
  return acc;
}

// Block b of 8 warps, tiles 8b .. 8b + 7 (warp w: tile 8b + w). The first tile t of each run
// of tiles carrying the same row r (r = coords[t + 1] < rows) sums the run's carries, tiles
// t .. e - 1, and adds the sum to y[r] (which holds r's sum in its last tile). A run of at most
// kLongRun carries: its warp, each lane its strided share in order, then a butterfly. A longer
// one (at most one starts in a block: it covers the next kLongRun tiles): the whole block, each
// thread its strided share, a butterfly in each warp, then a tree over the 8 warps.
template <class T, class I>
__device__ __forceinline__ void fixup_block(T* y, I rows, I tiles, const I* coords, const T* carry) {
  __shared__ I long_run[2];
  __shared__ T warp_sum[8];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const I t = I(blockIdx.x) * 8 + warp;
  if (threadIdx.x == 0) long_run[0] = -1;
  __syncthreads();
  if (t < tiles) {
    const I r = coords[t + 1];
    if (r < rows && (t == 0 || coords[t] != r)) {
      I lo = t + 2, hi = tiles;  // the first q > t + 1 with coords[q] > r (coords[tiles] = rows)
      while (lo < hi) {
        const I mid = lo + (hi - lo) / 2;
        if (coords[mid] <= r) lo = mid + 1;
        else hi = mid;
      }
      const I end = lo - 1;  // the run: tiles t .. end - 1
      if (end - t > kLongRun) {
        if (lane == 0) long_run[0] = t, long_run[1] = end;
      } else {
        T acc = strided_sum<32>(carry, t + lane, end);
#pragma unroll
        for (int o = 16; o > 0; o /= 2) acc += __shfl_xor_sync(~0u, acc, o);
        if (lane == 0) y[r] += acc;
      }
    }
  }
  __syncthreads();
  const I lt = long_run[0];
  if (lt < 0) return;
  T acc = strided_sum<256>(carry, lt + I(threadIdx.x), long_run[1]);
#pragma unroll
  for (int o = 16; o > 0; o /= 2) acc += __shfl_xor_sync(~0u, acc, o);
  if (lane == 0) warp_sum[warp] = acc;
  __syncthreads();
  if (threadIdx.x == 0)
    y[coords[lt + 1]] += ((warp_sum[0] + warp_sum[1]) + (warp_sum[2] + warp_sum[3])) +
                         ((warp_sum[4] + warp_sum[5]) + (warp_sum[6] + warp_sum[7]));
}

// The fix-up as its own launch: ceil(tiles / 8) blocks of 256 threads.
template <class T, class I>
__global__ void __launch_bounds__(256) spmv_fixup_kernel(T* y, I rows, I tiles, const I* coords, const T* carry) {
  fixup_block(y, rows, tiles, coords, carry);
}

// All of it in one cooperative launch of `tiles` blocks, all resident at once: block t finds
// tile t's first and last rows (warps 0 and 1), runs the tile and publishes its carry and last
// row; after the grid barrier blocks 0 .. ceil(tiles / 8) - 1 run fixup_block.
template <class T, class P, class O, class I>
__global__ void __launch_bounds__(P::threads, P::min_blocks)
    spmv_single_kernel(const O* row_offsets, const std::int32_t* cols, const T* values, const T* x, T* y, I rows,
                       I nnz, I tiles, I* coords, T* carry, bool vec) {
  using agent_t = agent::spmv_agent<T, P, O, I>;
  __shared__ typename agent_t::temp_storage s;
  __shared__ I ends[2];
  const I t = blockIdx.x;
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  if (warp < 2) {
    const I i = tile_row<P>(row_offsets, rows, nnz, t + warp, lane);
    if (lane == 0) ends[warp] = i;
  }
  __syncthreads();
  const I i0 = ends[0], i1 = ends[1];
  if (threadIdx.x == 0) coords[t + 1] = i1;
  if (threadIdx.x == 0 && t == 0) coords[0] = 0;
  agent_t{s, row_offsets, cols, values, x, y, carry, rows, nnz, vec}.consume_tile(t, i0, i1);
  if (tiles == 1) return;
  __threadfence();
  cooperative_groups::this_grid().sync();
  if (I(blockIdx.x) * 8 < tiles) fixup_block(y, rows, tiles, coords, carry);
}

}  // namespace mmv::gpu::device
