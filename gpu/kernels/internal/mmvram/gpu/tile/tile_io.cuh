// Tile layer: a pass is 4096 consecutive items, 8 warps × 512 (warp/layout.cuh); a tile is
// P::passes passes (tile/policy.cuh). Loads and stores move a lane's four chunks of 4 items:
// 16-byte vectors when "fast" (full, aligned), element-wise with bounds checks otherwise. A
// pass's first position may lie before item 0 (tile_grid's shift): those positions are padding.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "mmvram/gpu/thread/split.cuh"

namespace mmv::gpu::tile {

inline constexpr int kThreads = 256;
inline constexpr int kWarps = kThreads / 32;
inline constexpr int kPassItems = kThreads * 16;

// Where the tiles sit on the arrays: tile t covers items [t * tile_items - shift, (t + 1) *
// tile_items - shift), shift in [0, 16); aligned: at that shift every array moved tile-wise
// (values, flags, scan output) is 16-byte aligned at every tile's first item.
struct tile_grid {
  int shift;
  bool aligned;
};

// The value of padding positions (before item 0, from n on): the operator's identity (-0.0f is
// fp32's exact one: x + -0.0f == x for every x, -0.0f included).
template <class T>
__device__ __forceinline__ T pad_value() {
  return T(0);
}
template <>
__device__ __forceinline__ float pad_value<float>() {
  return -0.0f;
}

// Item i is in [0, n) (i may be negative).
__device__ __forceinline__ bool in_range(std::int64_t i, std::int64_t n) {
  return std::uint64_t(i) < std::uint64_t(n);
}

// The normalized flag word of the chunk whose item 0 is position i, with item 0 of the whole
// input (byte -i of the word when -4 < i <= 0) forced to be a start.
__device__ __forceinline__ std::uint32_t start_bit(std::int64_t i) {
  return i <= 0 && i > -4 ? 1u << (8 * int(-i)) : 0u;
}

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

// v[c][e] = in[base + chunk_offset(c) + e], pad_value outside [0, n) (base may be negative).
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
      for (int e = 0; e < 4; ++e) v[c][e] = in_range(i + e, n) ? in[i + e] : pad_value<T>();
    }
  }
}

// fw[c] byte e = flag of the same item as v[c][e], normalized to 0/1, 0 outside [0, n); item 0
// of the whole input is always a start.
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
      for (int e = 0; e < 4; ++e) w |= in_range(i + e, n) ? std::uint32_t(flags[i + e]) << (8 * e) : 0u;
    }
    fw[c] = thread::normalize_flags(w) | start_bit(i);
  }
}

// out[base + chunk_offset(c) + e] = v[c][e] for positions in [0, n) (base may be negative).
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
        if (in_range(i + e, n)) out[i + e] = v[c][e];
    }
  }
}

}  // namespace mmv::gpu::tile
