// REVSPEC and the block prefix sums of the cuda backend: instructions whose element i depends on
// the elements of its block (s or k of them) up to i. One thread walks each block once in index
// order, so an instruction reads O(m) elements whatever the flags. The walk runs in shared
// memory: a CUDA block loads a tile of whole blocks with coalesced reads, its threads walk one
// block each, and the results leave with coalesced writes. Blocks too long for a tile are walked
// in global memory. Every flag is checked once (the simulate backend checks them all too).
#include "device_common.cuh"

#include <type_traits>

namespace mmv::cuda_ops {

namespace {

constexpr int kThreads = 256;
constexpr std::int64_t kTileItems = 2048;  // a, its flags and the results: 48 KiB of 8-byte items

// Walks block [begin, begin + len) of a (flags f, null for none) into out; `first` is the
// block's first global index (for error reports). Walk(i_local, a, f, out, first) handles one
// element after the ones before it in the block.
template <class T, class Walk>
__device__ void walk_block(const T* a, const word* f, T* out, std::int64_t len, std::int64_t first, Walk& walk) {
  for (std::int64_t i = 0; i < len; ++i) walk(i, a, f, out, first);
}

template <class T, class MakeWalk>
__global__ void tiled_walk_kernel(const T* a, const word* f, T* out, std::int64_t m, std::int64_t k, std::int64_t tile,
                                  MakeWalk make_walk) {
  extern __shared__ __align__(16) unsigned char smem[];
  T* as = reinterpret_cast<T*>(smem);
  T* os = as + tile;
  word* fs = reinterpret_cast<word*>(os + tile);
  for (std::int64_t t0 = std::int64_t(blockIdx.x) * tile; t0 < m; t0 += std::int64_t(gridDim.x) * tile) {
    const std::int64_t len = tile < m - t0 ? tile : m - t0;
    for (std::int64_t i = threadIdx.x; i < len; i += kThreads) {
      as[i] = a[t0 + i];
      if (f) fs[i] = f[t0 + i];
    }
    __syncthreads();
    for (std::int64_t b = threadIdx.x; b * k < len; b += kThreads) {
      const std::int64_t begin = b * k, n = k < len - begin ? k : len - begin;
      auto walk = make_walk();
      walk_block(as + begin, f ? fs + begin : nullptr, os + begin, n, t0 + begin, walk);
    }
    __syncthreads();
    for (std::int64_t i = threadIdx.x; i < len; i += kThreads) out[t0 + i] = os[i];
    __syncthreads();
  }
}

// Runs make_walk()'s walk over every block of k elements of a (m of them).
template <class T, class MakeWalk>
void walk_blocks(const context& c, const T* a, const word* f, T* out, std::int64_t m, std::int64_t k, MakeWalk make_walk) {
  if (m <= 0) return;
  if (k > kTileItems) {  // long blocks: one thread per block in global memory
    for_each(c, (m + k - 1) / k, [=] __device__(std::int64_t b) {
      const std::int64_t begin = b * k, n = k < m - begin ? k : m - begin;
      auto walk = make_walk();
      walk_block(a + begin, f ? f + begin : nullptr, out + begin, n, begin, walk);
    });
    return;
  }
  const std::int64_t tile = kTileItems / k * k;
  const int smem = static_cast<int>(tile * (2 * sizeof(T) + sizeof(word)));
  const std::int64_t tiles = (m + tile - 1) / tile;
  const std::int64_t blocks = std::min<std::int64_t>(tiles, std::int64_t(gpu::runtime::sm_count()) * 8);
  tiled_walk_kernel<<<static_cast<unsigned>(blocks), kThreads, smem, c.stream>>>(a, f, out, m, k, tile, make_walk);
  check(cudaGetLastError(), "kernel launch");
}

}  // namespace

// REVSPEC: the walk keeps the block's last set flag; each element follows vcu::revspec.
template <class T>
void revspec_impl(const context& c, const T* a, const word* f, T* out, std::int64_t m) {
  walk_blocks(c, a, f, out, m, c.s, [=] __device__() {
    return [c, last = std::int64_t(-1)](std::int64_t i, const T* x, const word* g, T* o, std::int64_t first) mutable {
      if (flag(c, first + i, g[i])) last = i;
      const auto e = vcu::revspec(x, 0, last, i, c.word_bits, c.float32);
      if (!e.fits) report(c.err, width, c.seq, first + i, e.exact);
      o[i] = e.value;
    };
  });
}
void revspec(const context& c, const word* a, const word* f, word* out, std::int64_t m) { revspec_impl(c, a, f, out, m); }
void revspec(const context& c, const real* a, const word* f, real* out, std::int64_t m) { revspec_impl(c, a, f, out, m); }

// The block prefix sums: a running sum from 0, started again at each set flag, so element i gets
// 0 + a[from] + ... + a[i] (from: its block's start or last set flag) in the simulate backend's
// order (vcu::prefix_sum), checked or rounded once.
template <class T>
void block_prefix_impl(const context& c, const T* a, const word* f, std::int64_t k, T* out, std::int64_t m) {
  using sum_t = std::conditional_t<std::is_same_v<T, word>, wide, real>;
  walk_blocks(c, a, f, out, m, k, [=] __device__() {
    return [c, sum = sum_t(0)](std::int64_t i, const T* x, const word* g, T* o, std::int64_t first) mutable {
      if (g && flag(c, first + i, g[i])) sum = 0;
      sum += x[i];
      if constexpr (std::is_same_v<T, word>) o[i] = checked(c, first + i, sum);
      else o[i] = rounded(c, sum);
    };
  });
}
void block_prefix(const context& c, const word* a, const word* f, std::int64_t k, word* out, std::int64_t m) { block_prefix_impl(c, a, f, k, out, m); }
void block_prefix(const context& c, const real* a, const word* f, std::int64_t k, real* out, std::int64_t m) { block_prefix_impl(c, a, f, k, out, m); }

}  // namespace mmv::cuda_ops
