// Tile layer: a pass is 4096 consecutive items, 8 warps × 512 (warp/layout.cuh); a tile is
// P::passes passes (tile/policy.cuh). Loads and stores move a lane's four chunks of 4 items:
// 16-byte vectors when "fast" (full, aligned), element-wise with bounds checks otherwise.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "mmvram/gpu/thread/split.cuh"

namespace mmv::gpu::tile {

inline constexpr int kThreads = 256;
inline constexpr int kWarps = kThreads / 32;
inline constexpr int kPassItems = kThreads * 16;

// Position inside the pass of item 0 of chunk c of this lane (row 4g + c of its warp, item 4q).
__device__ __forceinline__ int chunk_offset(int warp, int lane, int c) {
  return warp * 512 + ((lane >> 2) * 4 + c) * 16 + (lane & 3) * 4;
}

__device__ __forceinline__ void load4(const float* p, float (&v)[4]) {
  const float4 r = __ldcs(reinterpret_cast<const float4*>(p));
  v[0] = r.x, v[1] = r.y, v[2] = r.z, v[3] = r.w;
}
__device__ __forceinline__ void load4(const std::uint32_t* p, std::uint32_t (&v)[4]) {
  const uint4 r = __ldcs(reinterpret_cast<const uint4*>(p));
  v[0] = r.x, v[1] = r.y, v[2] = r.z, v[3] = r.w;
}
__device__ __forceinline__ void store4(float* p, const float (&v)[4]) {
  *reinterpret_cast<float4*>(p) = make_float4(v[0], v[1], v[2], v[3]);
}
__device__ __forceinline__ void store4(std::uint32_t* p, const std::uint32_t (&v)[4]) {
  *reinterpret_cast<uint4*>(p) = make_uint4(v[0], v[1], v[2], v[3]);
}

// Four items to or from shared memory (16-byte aligned).
__device__ __forceinline__ void lds4(const float* p, float (&v)[4]) {
  const float4 r = *reinterpret_cast<const float4*>(p);
  v[0] = r.x, v[1] = r.y, v[2] = r.z, v[3] = r.w;
}
__device__ __forceinline__ void lds4(const std::uint32_t* p, std::uint32_t (&v)[4]) {
  const uint4 r = *reinterpret_cast<const uint4*>(p);
  v[0] = r.x, v[1] = r.y, v[2] = r.z, v[3] = r.w;
}
__device__ __forceinline__ void sts4(float* p, const float (&v)[4]) {
  *reinterpret_cast<float4*>(p) = make_float4(v[0], v[1], v[2], v[3]);
}
__device__ __forceinline__ void sts4(std::uint32_t* p, const std::uint32_t (&v)[4]) {
  *reinterpret_cast<uint4*>(p) = make_uint4(v[0], v[1], v[2], v[3]);
}

// v[c][e] = in[base + chunk_offset(c) + e], 0 past n.
template <class T>
__device__ __forceinline__ void load_values(const T* in, std::int64_t base, std::int64_t n,
                                            bool fast, int warp, int lane, T (&v)[4][4]) {
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    const std::int64_t i = base + chunk_offset(warp, lane, c);
    if (fast) {
      load4(in + i, v[c]);
    } else {
#pragma unroll
      for (int e = 0; e < 4; ++e) v[c][e] = i + e < n ? in[i + e] : T(0);
    }
  }
}

// fw[c] byte e = flag of the same item as v[c][e], normalized to 0/1, 0 past n; item 0 of the
// whole input is always a start.
__device__ __forceinline__ void load_flags(const std::uint8_t* flags, std::int64_t base,
                                           std::int64_t n, bool fast, int warp, int lane,
                                           std::uint32_t (&fw)[4]) {
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    const std::int64_t i = base + chunk_offset(warp, lane, c);
    std::uint32_t w = 0;
    if (fast) {
      w = __ldg(reinterpret_cast<const unsigned*>(flags + i));
    } else {
#pragma unroll
      for (int e = 0; e < 4; ++e) w |= i + e < n ? std::uint32_t(flags[i + e]) << (8 * e) : 0u;
    }
    fw[c] = thread::normalize_flags(w) | (i == 0 ? 1u : 0u);
  }
}

// out[base + chunk_offset(c) + e] = v[c][e] for positions below n.
template <class T>
__device__ __forceinline__ void store_values(T* out, std::int64_t base, std::int64_t n, bool fast,
                                             int warp, int lane, const T (&v)[4][4]) {
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    const std::int64_t i = base + chunk_offset(warp, lane, c);
    if (fast) {
      store4(out + i, v[c]);
    } else {
#pragma unroll
      for (int e = 0; e < 4; ++e)
        if (i + e < n) out[i + e] = v[c][e];
    }
  }
}

}  // namespace mmv::gpu::tile
