// Tile layer: single-pass decoupled look-back across tiles (Merrill & Garland), the one protocol
// every tiled kernel uses (mmvram's and the CUDA-core baselines): the chain states at the end
// (scan_chain_state, scan_count_chain_state) publish, look back and stop. Each tile owns one
// 64-bit descriptor word per chain holding a 2-bit status beside its value, so publishing is
// one relaxed store and no fence is needed. A segmented chain is the same chain: a tile holding
// a segment start publishes its value as a prefix at once, and look-backs stop there.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

namespace mmv::gpu::tile {

enum status : std::uint32_t { invalid = 0, aggregate = 1, prefix = 2 };

// Value words: status in bits 32..33, the 32-bit value below. Count words: status in bits
// 62..63, a 62-bit count below.
inline constexpr int kValueShift = 32;
inline constexpr int kCountShift = 62;

__device__ __forceinline__ std::uint32_t bits_of(float x) { return __float_as_uint(x); }
__device__ __forceinline__ std::uint32_t bits_of(std::uint32_t x) { return x; }

template <class T>
__device__ __forceinline__ std::uint64_t value_word(status s, T v) {
  return (std::uint64_t(s) << kValueShift) | bits_of(v);
}
__device__ __forceinline__ std::uint64_t count_word(status s, std::uint64_t c) {
  return (std::uint64_t(s) << kCountShift) | c;
}

template <class T, int Shift>
__device__ __forceinline__ T word_value(std::uint64_t w) {
  if constexpr (Shift == kCountShift) {
    return w & ((std::uint64_t(1) << kCountShift) - 1);
  } else if constexpr (std::is_same_v<T, float>) {
    return __uint_as_float(std::uint32_t(w));
  } else {
    return T(std::uint32_t(w));
  }
}

__device__ __forceinline__ std::uint64_t load_relaxed(const std::uint64_t* p) {
  std::uint64_t w;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(w) : "l"(p) : "memory");
  return w;
}
__device__ __forceinline__ void store_relaxed(std::uint64_t* p, std::uint64_t w) {
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(w) : "memory");
}
// Two words at once; each word is single-copy atomic by itself, which is all a chain needs.
__device__ __forceinline__ ulonglong2 load_relaxed(const ulonglong2* p) {
  ulonglong2 w;
  asm volatile("ld.relaxed.gpu.global.v2.u64 {%0,%1}, [%2];" : "=l"(w.x), "=l"(w.y) : "l"(p) : "memory");
  return w;
}
__device__ __forceinline__ void store_relaxed(ulonglong2* p, std::uint64_t a, std::uint64_t b) {
  asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1,%2};" ::"l"(p), "l"(a), "l"(b) : "memory");
}

// Descriptor words a lane reads per look-back step: a step inspects 32 * kLookbackWords tiles.
// One word per lane measured fastest (H200, n = 2^28: scan 0.698 → 0.671 ms, SSCR one segment
// 0.899 → 0.865 ms against 4 words; 2 words in between): the nearest prefix is almost always
// within 32 tiles, and a spinning step that reloads fewer words comes round sooner.
inline constexpr int kLookbackWords = 1;

// One chain's state in a warp-wide look-back window: word j of lane i is tile base - 32j - i.
template <class T, int Shift>
struct chain {
  T sum{};
  bool done = false;

  // Warp-uniform: whether some word this chain still needs holds no status yet.
  __device__ __forceinline__ bool missing(const std::uint64_t (&w)[kLookbackWords]) const {
    std::uint32_t need = ~0u, miss = 0;
#pragma unroll
    for (int j = 0; j < kLookbackWords; ++j) {
      const std::uint32_t st = std::uint32_t(w[j] >> Shift) & 3u;
      const std::uint32_t pm = __ballot_sync(~0u, st == prefix);
      const std::uint32_t im = __ballot_sync(~0u, st == invalid);
      miss |= im & need & (pm ? (pm & (0u - pm)) - 1u : ~0u);
      if (pm) need = 0;
    }
    return !done && miss;
  }
  // Adds the window's values up to the nearest prefix (inclusive), or all of them if none.
  __device__ __forceinline__ void accumulate(const std::uint64_t (&w)[kLookbackWords]) {
    const int lane = threadIdx.x & 31;
    T x = T(0);
    bool found = false;
#pragma unroll
    for (int j = 0; j < kLookbackWords; ++j) {
      const std::uint32_t pm = __ballot_sync(~0u, (std::uint32_t(w[j] >> Shift) & 3u) == prefix);
      const int last = pm ? __ffs(pm) - 1 : 31;
      if (!found && lane <= last) x += word_value<T, Shift>(w[j]);
      found = found || pm;
    }
    if (done) return;
#pragma unroll
    for (int o = 16; o > 0; o /= 2) x += __shfl_xor_sync(~0u, x, o);
    sum += x;
    done = found;
  }
};

// Exclusive prefix of tile `t` > 0 over one chain of value words; a full warp calls it and
// every lane returns the sum of the predecessors back to (and including) the nearest prefix.
template <class T>
__device__ T look_back(const std::uint64_t* desc, std::int64_t t) {
  const int lane = threadIdx.x & 31;
  chain<T, kValueShift> ch;
  for (std::int64_t base = t - 1 - lane; !ch.done; base -= 32 * kLookbackWords) {
    std::uint64_t w[kLookbackWords];
    do {
#pragma unroll
      for (int j = 0; j < kLookbackWords; ++j) {
        const std::int64_t i = base - 32 * j;
        w[j] = i >= 0 ? load_relaxed(desc + i) : value_word(prefix, T(0));
      }
    } while (ch.missing(w));
    ch.accumulate(w);
  }
  return ch.sum;
}

// Two chains per tile (x: value words, y: count words) looked back together.
template <class T>
__device__ void look_back(const ulonglong2* desc, std::int64_t t, T& value, std::uint64_t& count) {
  const int lane = threadIdx.x & 31;
  chain<T, kValueShift> vc;
  chain<std::uint64_t, kCountShift> cc;
  for (std::int64_t base = t - 1 - lane; !(vc.done && cc.done); base -= 32 * kLookbackWords) {
    std::uint64_t wv[kLookbackWords], wc[kLookbackWords];
    do {
#pragma unroll
      for (int j = 0; j < kLookbackWords; ++j) {
        const std::int64_t i = base - 32 * j;
        const ulonglong2 w = i >= 0 ? load_relaxed(desc + i)
                                    : make_ulonglong2(value_word(prefix, T(0)), count_word(prefix, 0));
        wv[j] = w.x, wc[j] = w.y;
      }
    } while (vc.missing(wv) || cc.missing(wc));
    vc.accumulate(wv);
    cc.accumulate(wc);
  }
  value = vc.sum;
  count = cc.sum;
}

// The chain state of one chain (one value word per tile in desc, zeroed before the launch).
template <class T>
struct scan_chain_state {
  std::uint64_t* desc;

  // Warp 0 of tile t, all lanes: publishes the tile's total (segmented: its span since its last
  // start), as a prefix at once when it holds a start or is tile 0; then, unless `need` is
  // false (allowed only with a start), looks back and, without a start, publishes its inclusive
  // prefix. Every lane returns the exclusive prefix: the predecessors' sum back to the nearest
  // start (0 when not needed).
  __device__ __forceinline__ T exclusive_prefix(std::int64_t t, T total, bool holds_start, bool need = true) const {
    const int lane = threadIdx.x & 31;
    if (lane == 0) store_relaxed(desc + t, value_word(t == 0 || holds_start ? prefix : aggregate, total));
    if (t == 0 || (holds_start && !need)) return T(0);
    const T ex = look_back<T>(desc, t);
    if (lane == 0 && !holds_start) store_relaxed(desc + t, value_word(prefix, ex + total));
    return ex;
  }
};

// The chain state of two chains (desc: a value word and a count word per tile, zeroed): the
// values as scan_chain_state, beside a plain count (of segment starts) that always looks back.
template <class T>
struct scan_count_chain_state {
  ulonglong2* desc;

  // Warp 0 of tile t, all lanes: ex and cex = the exclusive prefixes of both chains.
  __device__ __forceinline__ void exclusive_prefix(std::int64_t t, T total, bool holds_start, std::uint64_t count,
                                                   T& ex, std::uint64_t& cex) const {
    const int lane = threadIdx.x & 31;
    ex = T(0), cex = 0;
    if (lane == 0)
      store_relaxed(desc + t, value_word(t == 0 || holds_start ? prefix : aggregate, total),
                    count_word(t == 0 ? prefix : aggregate, count));
    if (t == 0) return;
    look_back<T>(desc, t, ex, cex);
    if (lane == 0)
      store_relaxed(desc + t, value_word(prefix, holds_start ? total : ex + total), count_word(prefix, cex + count));
  }
};

}  // namespace mmv::gpu::tile
