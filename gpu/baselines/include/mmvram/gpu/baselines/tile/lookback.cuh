// Tile level, cross-tile carry: single-pass decoupled look-back (Merrill & Garland) over
// Schwartz pairs. Each tile owns one 64-bit status word (value bits << 32 | flag << 2 | status),
// so a publication is one atomic store and a look-back stops at a prefix or at a segment start.
#pragma once
#include <cuda/atomic>

#include <cstdint>

#include "mmvram/gpu/baselines/warp/warp_seg_scan.cuh"

namespace mmv::gpu::baselines {

enum : unsigned { status_invalid = 0u, status_aggregate = 1u, status_prefix = 2u };

__device__ inline unsigned value_bits(float v) { return __float_as_uint(v); }
__device__ inline unsigned value_bits(std::int32_t v) { return static_cast<unsigned>(v); }
__device__ inline void from_bits(unsigned b, float& v) { v = __uint_as_float(b); }
__device__ inline void from_bits(unsigned b, std::int32_t& v) { v = static_cast<std::int32_t>(b); }

struct tile_status {
  unsigned long long* words;  // one per tile, zeroed (status_invalid) before the launch

  template <class T>
  __device__ void publish(long long tile, seg_pair<T> p, unsigned status) const {
    const unsigned long long w =
        (static_cast<unsigned long long>(value_bits(p.value)) << 32) | (p.flag << 2) | status;
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(words[tile])
        .store(w, cuda::memory_order_relaxed);
  }

  // Called by a whole warp; every lane returns the exclusive prefix pair of `tile` (the
  // combination of all tiles before it), reading 32 predecessors' words per step.
  template <class T>
  __device__ seg_pair<T> look_back(long long tile, unsigned lane) const {
    seg_pair<T> running{T(0), 0u};
    for (long long end = tile - 1;; end -= 32) {
      const long long idx = end - 31 + static_cast<long long>(lane);
      unsigned long long w = status_prefix;  // before tile 0: the identity, as a prefix
      if (idx >= 0) {
        cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> r(words[idx]);
        while (((w = r.load(cuda::memory_order_relaxed)) & 3u) == status_invalid) __nanosleep(8);
      }
      seg_pair<T> p;
      from_bits(static_cast<unsigned>(w >> 32), p.value);
      p.flag = static_cast<unsigned>(w >> 2) & 1u;
      const unsigned stops = __ballot_sync(full_warp, (w & 3u) == status_prefix || p.flag != 0u);
      const unsigned stop_lane = stops ? 31u - static_cast<unsigned>(__clz(static_cast<int>(stops))) : 0u;
      if (lane < stop_lane) p = {T(0), 0u};
      p = flag_transform_warp_scan::inclusive(p, lane);
      const seg_pair<T> window{__shfl_sync(full_warp, p.value, 31), __shfl_sync(full_warp, p.flag, 31)};
      running = schwartz(window, running);
      if (stops) return running;
    }
  }
};

}  // namespace mmv::gpu::baselines
