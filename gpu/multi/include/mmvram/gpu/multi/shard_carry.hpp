// The carry logic of a sharded segmented scan or sum, written once for the host (its CPU test)
// and the device (gpu/multi's kernels). An array cut into p consecutive shards, each scanned or
// summed on its own GPU as if its first item started a segment, is repaired from one summary per
// shard: where its first true segment start lies, the sum of the items before it (its head) and
// the sum from its last start to its end (its tail). Pure C++; no CUDA needed to include it.
#pragma once
#include <cstdint>
#include <type_traits>

#if defined(__CUDACC__)
#define MMV_SHARD_HD __host__ __device__
#else
#define MMV_SHARD_HD
#endif

namespace mmv::gpu::multi {

// One shard's summary, as the all-gather exchanges it (24 bytes for 4-byte T; trivially
// copyable). first_start: index of the shard's first segment start, n when it has none (a
// shard whose items all come before any start of the array's later shards is "open").
template <class T>
struct shard_summary {
  std::int64_t first_start = 0;
  std::int64_t n = 0;
  T head{};  // sum of items [0, first_start): the leading fragment of an earlier shard's segment
  T tail{};  // sum of items [last start, n), or of the whole shard when it has no start
};
static_assert(std::is_trivially_copyable_v<shard_summary<float>> && sizeof(shard_summary<float>) == 24);

// a + b as the kernels add: fp32 for float, two's-complement wrap-around for int32.
template <class T>
MMV_SHARD_HD inline T carry_add(T a, T b) {
  if constexpr (std::is_integral_v<T>)
    return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) + static_cast<std::make_unsigned_t<T>>(b));
  else
    return a + b;
}

// Whether shard r's position 0 starts a segment of the whole array: its flag says so, or every
// earlier shard is empty (the array's first item always starts one).
template <class T>
MMV_SHARD_HD inline bool opens_array(const shard_summary<T>* s, int r) {
  for (int q = 0; q < r; ++q)
    if (s[q].n > 0) return false;
  return true;
}

// The carry into shard r: the sum of the items of earlier shards since the array's last start
// before shard r (0 when shard r opens the array). Shard r adds it to its items [0, first_start).
// Empty shards are skipped and the first non-empty one's tail is taken as it is, so the carry is
// the sequential sum's value, sign of zero included.
template <class T>
MMV_SHARD_HD inline T carry_into(const shard_summary<T>* s, int r) {
  T c{};
  bool any = false;
  for (int q = 0; q < r; ++q) {
    if (s[q].n == 0) continue;
    c = !any || s[q].first_start < s[q].n ? s[q].tail : carry_add(c, s[q].tail);
    any = true;
  }
  return c;
}

// What shard r's last segment owes to later shards (a segmented sum): the heads of the later
// shards up to and including the first with a start (a shard without one contributes its whole
// sum, which is its head). Returns whether that segment runs on past shard r at all (some later
// non-empty shard continues it), with the sum in `owed`. p shards in all.
template <class T>
MMV_SHARD_HD inline bool owed_to(const shard_summary<T>* s, int r, int p, T& owed) {
  owed = T{};
  bool continues = false;
  for (int q = r + 1; q < p; ++q) {
    if (s[q].first_start > 0 && s[q].n > 0) owed = continues ? carry_add(owed, s[q].head) : s[q].head, continues = true;
    if (s[q].first_start < s[q].n) break;
  }
  return continues;
}

// Whether shard r's first local segment (the one its kernel starts at position 0) is a segment
// of the whole array, not the fragment of an earlier one. Its segmented sum reports its local
// segments from index (owns_first ? 0 : 1).
template <class T>
MMV_SHARD_HD inline bool owns_first(const shard_summary<T>* s, int r) {
  return s[r].first_start == 0 || opens_array(s, r);
}

}  // namespace mmv::gpu::multi
