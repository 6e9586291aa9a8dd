// Tile layer: a pass is 4096 consecutive items, 8 warps × 512 (warp/layout.cuh); a tile is
// P::passes passes (tile/policy.cuh). Loads and stores move a lane's four chunks of 4 items:
// 16-byte vectors when "fast" (full, aligned), element-wise with bounds checks otherwise. With
// Shifted (tile_grid's shift > 0), a pass's first position may lie before item 0: those
// positions are padding; without, the checks are for the end only (the aligned kernels' code).
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

// Item i is in [0, n) (Shifted: i may be negative).
template <bool Shifted>
__device__ __forceinline__ bool in_range(std::int64_t i, std::int64_t n) {
  if constexpr (Shifted) return std::uint64_t(i) < std::uint64_t(n);
  else return i < n;
}
// Padding past n (and, Shifted, before 0): pad_value, or 0 for the unshifted kernels.
template <bool Shifted, class T>
__device__ __forceinline__ T pad() {
  if constexpr (Shifted) return pad_value<T>();
  else return T(0);
}

// The start bit of item 0 of the whole input in the flag word of the chunk whose item 0 is
// position i (Shifted: byte -i of the word when -4 < i <= 0).
template <bool Shifted>
__device__ __forceinline__ std::uint32_t start_bit(std::int64_t i) {
  if constexpr (Shifted) return i <= 0 && i > -4 ? 1u << (8 * int(-i)) : 0u;
  else return i == 0 ? 1u : 0u;
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
// store4 as one opaque st.global.v4 (16-byte aligned p): where the fast path implies the
// checked path's bounds (shifted tiles), the compiler would otherwise merge the two into scalar
// stores.
__device__ __forceinline__ void store4_asm(float* p, const float (&v)[4]) {
  asm volatile("st.global.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(__cvta_generic_to_global(p)), "f"(v[0]),
               "f"(v[1]), "f"(v[2]), "f"(v[3]) : "memory");
}
__device__ __forceinline__ void store4_asm(std::uint32_t* p, const std::uint32_t (&v)[4]) {
  asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(__cvta_generic_to_global(p)), "r"(v[0]),
               "r"(v[1]), "r"(v[2]), "r"(v[3]) : "memory");
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

// v[c][e] = in[base + chunk_offset(c) + e], pad outside [0, n) (Shifted: base may be negative).
template <bool Shifted, class T>
__device__ __forceinline__ void load_values(const T* in, std::int64_t base, std::int64_t n,
                                            bool fast, int warp, int lane, T (&v)[4][4]) {
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    const std::int64_t i = base + chunk_offset(warp, lane, c);
    if (fast) {
      load4(in + i, v[c]);
    } else {
#pragma unroll
      for (int e = 0; e < 4; ++e) v[c][e] = in_range<Shifted>(i + e, n) ? in[i + e] : pad<Shifted, T>();
    }
  }
}

// fw[c] byte e = flag of the same item as v[c][e], normalized to 0/1, 0 outside [0, n); item 0
// of the whole input is always a start.
template <bool Shifted>
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
      for (int e = 0; e < 4; ++e) w |= in_range<Shifted>(i + e, n) ? std::uint32_t(flags[i + e]) << (8 * e) : 0u;
    }
    fw[c] = thread::normalize_flags(w) | start_bit<Shifted>(i);
  }
}

// out[base + chunk_offset(c) + e] = v[c][e] for positions in [0, n) (Shifted: base may be
// negative).
template <bool Shifted, class T>
__device__ __forceinline__ void store_values(T* out, std::int64_t base, std::int64_t n, bool fast,
                                             int warp, int lane, const T (&v)[4][4]) {
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    const std::int64_t i = base + chunk_offset(warp, lane, c);
    if (fast) {
      if constexpr (Shifted) store4_asm(out + i, v[c]);
      else store4(out + i, v[c]);
    } else {
#pragma unroll
      for (int e = 0; e < 4; ++e)
        if (in_range<Shifted>(i + e, n)) out[i + e] = v[c][e];
    }
  }
}

}  // namespace mmv::gpu::tile
