// Agent layer: one merge-path tile of CSR SpMV (tile/merge_path.cuh): SCD's GATHER → MULT →
// segmented sum with a segment start at every row start, in one pass. The block stages the
// tile's row ends and products x[col] * value in shared memory (GATHER, MULT), each thread
// consumes `items` consecutive path items (a running sum, reset at each row end: the
// DIFFERENTIATION of a segmented sum read off at the segment ends), and a segmented scan of
// the threads' carries (tile/warp_prefix) completes each thread's first row. What is still
// open at the tile's end (its carry) is left for the fix-up pass (device/spmv.cuh).
#pragma once
#include <cstdint>

#include "mmvram/gpu/tile/merge_path.cuh"
#include "mmvram/gpu/tile/warp_prefix.cuh"

namespace mmv::gpu::agent {

// Tuning: a block of tile::kThreads threads, `Items` path items each (CUB's SpMV policy idea).
template <int Items>
struct spmv_policy {
  static constexpr int threads = tile::kThreads;
  static constexpr int items = Items;
  static constexpr int tile_items = threads * Items;
};
using spmv_default_policy = spmv_policy<7>;

template <class T, class P>
struct spmv_agent {
  struct temp_storage {
    std::int32_t row_end[P::tile_items + 1];  // the tile's row ends less j0, then a sentinel
    T buf[P::tile_items];  // the tile's products at [0, b_len), its finished rows at [b_len, b_len + a_len)
    warp::seg<T> warp_span[tile::kWarps];
  };

  temp_storage& s;
  const std::int64_t* row_offsets;
  const std::int32_t* cols;
  const T *values, *x;
  T *y, *carry;
  std::int64_t rows, nnz;
  const std::int64_t* coords;  // coords[t] = row coordinate of tile t's first diagonal

  // GATHER and MULT of the tile's row ends (a_len <= tile_items) and b_len <= tile_items products:
  // each thread issues its `items` loads of each array before using any (independent loads in
  // flight: the gathers of x wait on the columns only), coalesced across the block.
  __device__ __forceinline__ void stage(int tid, std::int64_t i0, std::int64_t j0, int a_len, int b_len) {
#pragma unroll
    for (int k = 0; k < P::items; ++k) {
      const int e = tid + k * P::threads;
      if (e < a_len) s.row_end[e] = int(__ldcs(row_offsets + i0 + e + 1) - j0);
    }
    if (tid == 0) s.row_end[a_len] = 0x7fffffff;
    std::int32_t c[P::items];
    T v[P::items];
#pragma unroll
    for (int k = 0; k < P::items; ++k) {
      const int e = tid + k * P::threads;
      if (e < b_len) c[k] = __ldcs(cols + j0 + e), v[k] = __ldcs(values + j0 + e);
    }
#pragma unroll
    for (int k = 0; k < P::items; ++k) {
      const int e = tid + k * P::threads;
      if (e < b_len) s.buf[e] = v[k] * __ldg(x + c[k]);
    }
  }

  // Tile t: writes y[r] for the rows whose end lies in the tile (their sum within the tile) and
  // carry[t] = the sum within the tile of row coords[t + 1] (the row open at the tile's end).
  __device__ __forceinline__ void consume_tile(std::int64_t t) {
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const std::int64_t d0 = t * P::tile_items, d1 = d0 + P::tile_items < rows + nnz ? d0 + P::tile_items : rows + nnz;
    const std::int64_t i0 = coords[t], i1 = coords[t + 1], j0 = d0 - i0;
    const int a_len = int(i1 - i0), b_len = int(d1 - i1 - j0);
    stage(tid, i0, j0, a_len, b_len);
    __syncthreads();

    // Path coordinates in the tile: i a row (0 .. a_len), j a nonzero less j0 (0 .. b_len).
    const int len = a_len + b_len, dt = tid * P::items < len ? tid * P::items : len;
    int i = int(tile::merge_path_row(s.row_end, a_len, 0, b_len, dt)), j = dt - i;
    T run = T(0), first = T(0), *const y_tile = s.buf + b_len;
    int first_row = -1;
#pragma unroll
    for (int k = 0; k < P::items; ++k) {
      if (dt + k >= len) break;
      if (j < s.row_end[i]) {
        run += s.buf[j], ++j;
      } else {  // the end of row i0 + i: its sum within this thread is read off
        if (first_row < 0) first = run, first_row = i;
        else y_tile[i] = run;
        run = T(0), ++i;
      }
    }

    // The segmented scan of the threads' carries: in the warp by shuffles, then across warps.
    const warp::seg<T> mine{first_row >= 0 ? 1u : 0u, run};
    warp::seg<T> incl = mine;
#pragma unroll
    for (int o = 1; o < 32; o *= 2) {
      const warp::seg<T> up = warp::shfl_up(incl, o);
      if (lane >= o) incl = warp::combine(up, incl);
    }
    warp::seg<T> ex = warp::shfl_up(incl, 1);
    if (lane == 0) ex = {0u, T(0)};
    if (lane == 31) s.warp_span[warp] = incl;
    __syncthreads();
    warp::seg<T> pre[1], total;
    tile::warp_prefixes<T, 1>(s.warp_span, warp, pre, total);
    if (first_row >= 0) y_tile[first_row] = warp::combine(pre[0], ex).v + first;
    if (tid == 0) carry[t] = total.v;
    __syncthreads();
    for (int k = tid; k < a_len; k += P::threads) y[i0 + k] = y_tile[k];
  }
};

}  // namespace mmv::gpu::agent
