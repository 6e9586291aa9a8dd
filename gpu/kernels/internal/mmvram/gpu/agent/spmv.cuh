// Agent layer: one merge-path tile of CSR SpMV (tile/merge_path.cuh): SCD's GATHER → MULT →
// segmented sum with a segment start at every row start, in one pass. The block stages the
// tile's row ends and products x[col] * value in shared memory (GATHER, MULT), each thread
// consumes `items` consecutive path items (a running sum, reset at each row end: the
// DIFFERENTIATION of a segmented sum read off at the segment ends), and a segmented scan of
// the threads' carries (tile/warp_prefix) completes each thread's first row. What is still
// open at the tile's end (its carry) is left for the fix-up (device/spmv.cuh). Row offsets of
// type O (int32 or int64), path coordinates of type I (int32 where rows + nnz fits, else int64).
#pragma once
#include <cstdint>

#include "mmvram/gpu/tile/merge_path.cuh"
#include "mmvram/gpu/tile/warp_prefix.cuh"

namespace mmv::gpu::agent {

// Tuning: a block of tile::kThreads threads, `Items` path items each (CUB's SpMV policy idea),
// values and columns staged with 16-byte loads where aligned (VectorLoads) or element by element,
// and MinBlocks blocks a SM asked of the register allocator (__launch_bounds__).
template <int Items, bool VectorLoads, int MinBlocks>
struct spmv_policy {
  static constexpr int threads = tile::kThreads;
  static constexpr int items = Items;
  static constexpr int tile_items = threads * Items;
  static constexpr bool vector_loads = VectorLoads;
  static constexpr int min_blocks = MinBlocks;
};
// Per value type, as measured on an H100 (docs/kernels.md "SpMV"): fp32 15 items with 16-byte
// loads, fp64 9 items element by element (its double2 staging took registers and occupancy and
// ran slower), both 5 blocks a SM (48 registers: 6 blocks spilled in fp32 and ran slower).
// spmv_rounding_depth takes the larger depth of the two.
template <class T>
struct spmv_default_policy;
template <>
struct spmv_default_policy<float> {
  using type = spmv_policy<15, true, 5>;
};
template <>
struct spmv_default_policy<double> {
  using type = spmv_policy<9, false, 5>;
};

// 16-byte loads of values and columns: V elements a load (float4/int4, double2/int2).
template <class T>
struct spmv_vec;
template <>
struct spmv_vec<float> {
  using value = float4;
  using col = int4;
  static constexpr int n = 4;
};
template <>
struct spmv_vec<double> {
  using value = double2;
  using col = int2;
  static constexpr int n = 2;
};

template <class T, class P, class O, class I>
struct spmv_agent {
  struct temp_storage {
    std::int32_t row_end[P::tile_items + 1];  // the tile's row ends less j0, then a sentinel
    T buf[P::tile_items];  // the tile's products at [0, b_len), its finished rows at [b_len, b_len + a_len)
    warp::seg<T> warp_span[tile::kWarps];
  };

  temp_storage& s;
  const O* row_offsets;
  const std::int32_t* cols;
  const T *values, *x;
  T *y, *carry;
  I rows, nnz;
  bool vec;  // values and cols 16-byte aligned: stage with 16-byte loads

  // GATHER and MULT of the tile's row ends (a_len <= tile_items) and b_len <= tile_items products:
  // each thread issues all its loads of an array before using any (independent loads in flight:
  // the gathers of x wait on the columns only), coalesced across the block.
  __device__ __forceinline__ void stage(int tid, I i0, I j0, int a_len, int b_len) {
    const O* ends = row_offsets + i0 + 1;
#pragma unroll
    for (int k = 0; k < P::items; ++k) {
      const int e = tid + k * P::threads;
      if (e < a_len) s.row_end[e] = int(__ldcs(ends + e) - j0);
    }
    if (tid == 0) s.row_end[a_len] = 0x7fffffff;
    if (vec) return stage_vec(tid, j0, b_len);
    const std::int32_t* cb = cols + j0;
    const T* vb = values + j0;
    std::int32_t c[P::items];
    T v[P::items];
#pragma unroll
    for (int k = 0; k < P::items; ++k) {
      const int e = tid + k * P::threads;
      if (e < b_len) c[k] = __ldcs(cb + e), v[k] = __ldcs(vb + e);
    }
#pragma unroll
    for (int k = 0; k < P::items; ++k) {
      const int e = tid + k * P::threads;
      if (e < b_len) s.buf[e] = v[k] * __ldg(x + c[k]);
    }
  }

  // The same with 16-byte loads: chunk q holds nonzeros g0 + q V .. g0 + q V + V - 1 (g0 = j0
  // rounded down to V), whole chunks inside [0, nnz) in one load of each array, the last one of
  // the matrix element by element; elements outside the tile are loaded and dropped.
  __device__ __forceinline__ void stage_vec(int tid, I j0, int b_len) {
    using vt = spmv_vec<T>;
    constexpr int V = vt::n, rounds = (P::tile_items / V + 1 + P::threads - 1) / P::threads;
    const I g0 = j0 & ~I(V - 1);
    const int lead = int(j0 - g0), chunks = (lead + b_len + V - 1) / V;
    typename vt::col c[rounds];
    typename vt::value v[rounds];
#pragma unroll
    for (int r = 0; r < rounds; ++r) {
      const int q = tid + r * P::threads;
      const I g = g0 + I(q) * V;
      if (q < chunks && g + V <= nnz) {
        c[r] = __ldcs(reinterpret_cast<const typename vt::col*>(cols + g));
        v[r] = __ldcs(reinterpret_cast<const typename vt::value*>(values + g));
      } else if (q < chunks) {
        std::int32_t* cp = reinterpret_cast<std::int32_t*>(&c[r]);
        T* vp = reinterpret_cast<T*>(&v[r]);
#pragma unroll
        for (int u = 0; u < V; ++u) cp[u] = g + u < nnz ? cols[g + u] : 0, vp[u] = g + u < nnz ? values[g + u] : T(0);
      }
    }
#pragma unroll
    for (int r = 0; r < rounds; ++r) {
      const int q = tid + r * P::threads;
      if (q >= chunks) continue;
      const std::int32_t* cp = reinterpret_cast<const std::int32_t*>(&c[r]);
      const T* vp = reinterpret_cast<const T*>(&v[r]);
#pragma unroll
      for (int u = 0; u < V; ++u) {
        const int e = q * V + u - lead;
        if (e >= 0 && e < b_len) s.buf[e] = vp[u] * __ldg(x + cp[u]);
      }
    }
  }

  // A thread's path items dt .. dt + items - 1 (Bounded: up to the tile's end len only): a
  // running sum reset at each row end; the first row's sum is kept apart (first, first_row).
  template <bool Bounded>
  __device__ __forceinline__ void walk(int dt, int len, int& i, int& j, int& end, T& run, T& first, int& first_row,
                                       T* y_tile) {
#pragma unroll
    for (int k = 0; k < P::items; ++k) {
      if (Bounded && dt + k >= len) break;
      if (j < end) {
        run += s.buf[j], ++j;
      } else {  // the end of row i0 + i: its sum within this thread is read off
        if (first_row < 0) first = run, first_row = i;
        else y_tile[i] = run;
        run = T(0), end = s.row_end[++i];
      }
    }
  }

  // Tile t, its first and last diagonals on rows i0 and i1: writes y[r] for the rows whose end
  // lies in the tile (their sum within the tile) and carry[t] = the sum within the tile of row
  // i1 (the row open at the tile's end).
  __device__ __forceinline__ void consume_tile(I t, I i0, I i1) {
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const I d0 = t * P::tile_items, d1 = d0 + P::tile_items < rows + nnz ? d0 + P::tile_items : rows + nnz;
    const I j0 = d0 - i0;
    const int a_len = int(i1 - i0), b_len = int(d1 - i1 - j0);
    stage(tid, i0, j0, a_len, b_len);
    __syncthreads();

    // Path coordinates in the tile: i a row (0 .. a_len), j a nonzero less j0 (0 .. b_len).
    const int len = a_len + b_len, dt = tid * P::items < len ? tid * P::items : len;
    int i = tile::merge_path_row32(s.row_end, a_len, b_len, dt), j = dt - i, end = s.row_end[i];
    T run = T(0), first = T(0), *const y_tile = s.buf + b_len;
    int first_row = -1;
    if (dt + P::items <= len) walk<false>(dt, len, i, j, end, run, first, first_row, y_tile);
    else walk<true>(dt, len, i, j, end, run, first, first_row, y_tile);

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
