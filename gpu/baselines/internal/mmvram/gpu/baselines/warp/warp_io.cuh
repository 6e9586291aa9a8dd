// Warp level, data movement: a warp's 32 x ITEMS slice of values moves between global memory
// (coalesced, 16-byte vectors on full aligned tiles) and a blocked register arrangement (lane l
// owns items l*ITEMS .. l*ITEMS+ITEMS-1) through a padded shared-memory transpose.
#pragma once
#include <cstdint>

namespace mmv::gpu::baselines {

template <int ITEMS>
struct warp_io {
  static constexpr int items = 32 * ITEMS;
  static constexpr int smem_words = items + items / 16;  // one pad word per 16: no bank conflicts
  __device__ static int pad(int e) { return e + e / 16; }

  // Loads valid (<= items) values starting at src into v; missing items read as T(0).
  // vec: src is 16-byte aligned and valid == items.
  template <class T>
  __device__ static void load(const T* src, int valid, bool vec, T* smem, unsigned lane,
                              T (&v)[ITEMS]) {
    static_assert(sizeof(T) == 4 && ITEMS % 4 == 0, "4-byte items, ITEMS a multiple of 4");
    if (vec) {
      const int4* s4 = reinterpret_cast<const int4*>(src);
#pragma unroll
      for (int j = 0; j < ITEMS / 4; ++j) {
        const int4 q = __ldg(s4 + j * 32 + lane);
        const int e = (j * 32 + static_cast<int>(lane)) * 4;
        const int w[4] = {q.x, q.y, q.z, q.w};
#pragma unroll
        for (int c = 0; c < 4; ++c) reinterpret_cast<int*>(smem)[pad(e + c)] = w[c];
      }
    } else {
#pragma unroll
      for (int j = 0; j < ITEMS; ++j) {
        const int e = j * 32 + static_cast<int>(lane);
        smem[pad(e)] = e < valid ? src[e] : T(0);
      }
    }
    __syncwarp();
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) v[k] = smem[pad(static_cast<int>(lane) * ITEMS + k)];
    __syncwarp();
  }

  // Stores the first valid items of the blocked registers v to dst (same layout as load).
  template <class T>
  __device__ static void store(T* dst, int valid, bool vec, T* smem, unsigned lane,
                               const T (&v)[ITEMS]) {
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) smem[pad(static_cast<int>(lane) * ITEMS + k)] = v[k];
    __syncwarp();
    if (vec) {
      int4* d4 = reinterpret_cast<int4*>(dst);
      const int* s = reinterpret_cast<const int*>(smem);
#pragma unroll
      for (int j = 0; j < ITEMS / 4; ++j) {
        const int e = (j * 32 + static_cast<int>(lane)) * 4;
        d4[j * 32 + lane] = make_int4(s[pad(e)], s[pad(e + 1)], s[pad(e + 2)], s[pad(e + 3)]);
      }
    } else {
#pragma unroll
      for (int j = 0; j < ITEMS; ++j) {
        const int e = j * 32 + static_cast<int>(lane);
        if (e < valid) dst[e] = smem[pad(e)];
      }
    }
    __syncwarp();
  }

  // Head bits of lane's ITEMS flags (bit k: flag of item lane*ITEMS + k is non-zero); flags
  // past valid read as 0. vec: flags 16-byte aligned, valid == items and ITEMS == 16.
  __device__ static std::uint32_t load_heads(const std::uint8_t* flags, int valid, bool vec,
                                             unsigned lane) {
    std::uint32_t heads = 0;
    const int first = static_cast<int>(lane) * ITEMS;
    if (ITEMS == 16 && vec) {
      const uint4 q = __ldg(reinterpret_cast<const uint4*>(flags + first));
      const unsigned w[4] = {q.x, q.y, q.z, q.w};
#pragma unroll
      for (int k = 0; k < 16; ++k) heads |= (((w[k / 4] >> (8 * (k % 4))) & 0xffu) != 0u ? 1u : 0u) << k;
    } else {
#pragma unroll
      for (int k = 0; k < ITEMS; ++k)
        if (first + k < valid && flags[first + k] != 0) heads |= 1u << k;
    }
    return heads;
  }
};

}  // namespace mmv::gpu::baselines
