// Thread level of the CUDA-core segmented scans: the (flag, value) pair, the Schwartz operator,
// and the sequential in-register scan of one thread's items.
#pragma once
#include <cstdint>

namespace mmv::gpu::baselines {

// Addition as the scans define it: fp32 for float; int32 data runs as uint32, whose addition
// wraps around as two's complement does, without signed overflow.
__host__ __device__ inline float wrap_add(float a, float b) { return a + b; }
__host__ __device__ inline std::uint32_t wrap_add(std::uint32_t a, std::uint32_t b) { return a + b; }

// A summary of a range: flag = 1 when a segment starts inside it; value = the sum from the last
// start to the end of the range (the whole range when flag == 0).
template <class T>
struct seg_pair {
  T value;
  std::uint32_t flag;
};

// Schwartz operator, "a then b": a start in b absorbs a, otherwise the values add.
// Associative (not commutative); identity {0, 0}.
template <class T>
__host__ __device__ inline seg_pair<T> schwartz(seg_pair<T> a, seg_pair<T> b) {
  return {b.flag ? b.value : wrap_add(a.value, b.value), a.flag | b.flag};
}

// In-place sequential segmented inclusive scan of N register items; bit k of heads marks a
// segment start at item k. Returns the thread's summary pair.
template <int N, class T>
__device__ inline seg_pair<T> thread_seg_scan(T (&v)[N], std::uint32_t heads) {
#pragma unroll
  for (int k = 1; k < N; ++k) v[k] = ((heads >> k) & 1u) ? v[k] : wrap_add(v[k - 1], v[k]);
  return {v[N - 1], heads != 0u ? 1u : 0u};
}

// Adds the carry (sum since the last start before this thread) to the items that precede the
// thread's first start.
template <int N, class T>
__device__ inline void thread_apply_carry(T (&v)[N], std::uint32_t heads, T carry) {
  const int first = heads ? __ffs(static_cast<int>(heads)) - 1 : N;
#pragma unroll
  for (int k = 0; k < N; ++k)
    if (k < first) v[k] = wrap_add(carry, v[k]);
}

}  // namespace mmv::gpu::baselines
