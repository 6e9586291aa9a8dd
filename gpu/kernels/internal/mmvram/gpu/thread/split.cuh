// Thread layer: exact splits of the data into tensor-core operands, and flag-byte helpers.
// The 0/1 scan matrices are exact in every format, so the data is split instead: an fp32 value
// into three bf16 parts, an int32 value into four byte planes, a 0/1 flag into a bf16 0/1.
#pragma once
#include <cstdint>

namespace mmv::gpu::thread {

// Packs bf16(lo_elem) into the low and bf16(hi_elem) into the high half (round to nearest).
__device__ __forceinline__ std::uint32_t pack_bf16x2(float lo_elem, float hi_elem) {
  std::uint32_t d;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(d) : "f"(hi_elem), "f"(lo_elem));
  return d;
}

// Splits (x0, x1) into packed bf16x2 parts p[0] (high), p[1], p[2] (low) with
// x = p[0] + p[1] + p[2] exactly for finite x whose parts stay within bf16's range (3 × 8 bits
// cover fp32's 24): not for |x| >= 0x1.fep127 (bf16 rounds p[0] to inf; the scans rescan such
// blocks on the CUDA cores) nor for what lies below 2^-133 (bf16's smallest subnormal).
__device__ __forceinline__ void split3_bf16x2(float x0, float x1, std::uint32_t (&p)[3]) {
#pragma unroll
  for (int k = 0; k < 3; ++k) {
    p[k] = pack_bf16x2(x0, x1);
    x0 -= __uint_as_float(p[k] << 16);
    x1 -= __uint_as_float(p[k] & 0xffff0000u);
  }
}

// 4×4 byte transpose: byte j of plane[p] = byte p of w[j].
__device__ __forceinline__ void byte_planes(const std::uint32_t (&w)[4], std::uint32_t (&plane)[4]) {
  const std::uint32_t t0 = __byte_perm(w[0], w[1], 0x5140), t1 = __byte_perm(w[0], w[1], 0x7362);
  const std::uint32_t t2 = __byte_perm(w[2], w[3], 0x5140), t3 = __byte_perm(w[2], w[3], 0x7362);
  plane[0] = __byte_perm(t0, t2, 0x5410);
  plane[1] = __byte_perm(t0, t2, 0x7632);
  plane[2] = __byte_perm(t1, t3, 0x5410);
  plane[3] = __byte_perm(t1, t3, 0x7632);
}

// Four flag bytes → 0/1 per byte (any non-zero byte is a segment start).
__device__ __forceinline__ std::uint32_t normalize_flags(std::uint32_t w) {
  return __vcmpne4(w, 0u) & 0x01010101u;
}

// bf16x2 of normalized flag bytes 2h and 2h + 1 of w (bf16 1.0 is 0x3F80).
__device__ __forceinline__ std::uint32_t flags_bf16x2(std::uint32_t w, int h) {
  return __byte_perm(w, 0u, h ? 0x4342 : 0x4140) * 0x3F80u;
}

// An fp32 holding an exact integer in [0, 2^23) → that integer (one add, no conversion unit).
__device__ __forceinline__ std::uint32_t exact_count(float x) {
  return __float_as_uint(x + 8388608.0f) - 0x4B000000u;
}

}  // namespace mmv::gpu::thread
