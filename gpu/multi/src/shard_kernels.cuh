// The device kernels of gpu/multi (internal, included by sharded.cu only): the first-start
// search, the shard summaries, the carry and owed-sum repairs, and the grid that launches the
// per-item ones.
#pragma once
#include <algorithm>
#include <cstdint>

#include "mmvram/gpu/multi/shard_carry.hpp"
#include "mmvram/gpu/runtime/device.hpp"

namespace mmv::gpu::multi {
namespace {

constexpr int kThreads = 256;

// The first i with flags[i] != 0 (n when none) into *first, which holds n on entry. Each thread
// tests 16 flags per step (one 16-byte load where the flags are 16-byte aligned); a thread stops
// once a start at or before its position is known, so the pass reads only up to the first start
// (all n flags of a shard without one).
__global__ void find_first_start(const std::uint8_t* flags, std::int64_t n, unsigned long long* first) {
  const std::int64_t stride = (std::int64_t{gridDim.x} * blockDim.x) * 16;
  const bool vector = reinterpret_cast<std::uintptr_t>(flags) % 16 == 0;
  for (std::int64_t i = (std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x) * 16; i < n; i += stride) {
    if (static_cast<std::int64_t>(*reinterpret_cast<volatile unsigned long long*>(first)) <= i) return;
    if (vector && i + 16 <= n) {
      const uint4 v = *reinterpret_cast<const uint4*>(flags + i);
      if ((v.x | v.y | v.z | v.w) == 0) continue;
    }
    for (std::int64_t k = i; k < i + 16 && k < n; ++k)
      if (flags[k]) {
        atomicMin(first, static_cast<unsigned long long>(k));
        break;
      }
  }
}

__global__ void set_value(unsigned long long* v, std::int64_t value) { *v = static_cast<unsigned long long>(value); }

// The summary of a scanned shard: head = out[first - 1], tail = out[n - 1] (the local scan's
// running sum there covers exactly those items).
template <class T>
__global__ void summarize_scan(const T* out, std::int64_t n, const unsigned long long* first, shard_summary<T>* s) {
  const auto f = static_cast<std::int64_t>(*first);
  *s = {f, n, f > 0 ? out[f - 1] : T{}, n > 0 ? out[n - 1] : T{}};
}

// The summary of a summed shard, from the kernel's own output: its first start is 0 when flags[0]
// is set, else the second local segment's start (offsets[1]), else n (no start); head = its first
// local sum when that is a fragment, tail = its last local sum.
template <class T>
__global__ void summarize_sum(const T* sums, const std::int64_t* offsets, const std::int64_t* count,
                              const std::uint8_t* flags, std::int64_t n, shard_summary<T>* s) {
  const std::int64_t k = *count;
  const std::int64_t f = n == 0 || flags[0] ? 0 : k >= 2 ? offsets[1] : n;
  *s = {f, n, f > 0 && k > 0 ? sums[0] : T{}, k > 0 ? sums[k - 1] : T{}};
}

// out[i] += carry into shard `rank` for i < its first start (nothing when it opens the array).
template <class T>
__global__ void add_carry(T* out, const shard_summary<T>* all, int rank) {
  __shared__ T carry;
  if (opens_array(all, rank)) return;
  if (threadIdx.x == 0) carry = carry_into(all, rank);
  __syncthreads();
  const std::int64_t end = all[rank].first_start < all[rank].n ? all[rank].first_start : all[rank].n;
  const std::int64_t stride = std::int64_t{gridDim.x} * blockDim.x;
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < end; i += stride)
    out[i] = carry_add(carry, out[i]);
}

// The segmented sum's repair: *first_owned, and the owed sum added to the last owned segment.
template <class T>
__global__ void settle_sum(T* sums, const std::int64_t* count, std::int64_t* first_owned,
                           const shard_summary<T>* all, int rank, int ranks) {
  const std::int64_t owned = owns_first(all, rank) ? 0 : 1;
  *first_owned = owned;
  T owed;
  const std::int64_t k = *count;
  if (owed_to(all, rank, ranks, owed) && k - 1 >= owned) sums[k - 1] = carry_add(sums[k - 1], owed);
}

int grid_for(std::int64_t n) {
  const int sms = runtime::sm_count();
  const std::int64_t blocks = (n + kThreads * 16 - 1) / (kThreads * 16);
  return static_cast<int>(std::clamp<std::int64_t>(blocks, 1, std::int64_t{sms} * 8));
}

}  // namespace
}  // namespace mmv::gpu::multi
