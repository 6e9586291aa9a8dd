// Thread layer: the tensor-core instructions mmvram's kernels use (PTX mma.sync, sm_80+).
// Fragment layouts are the PTX ISA's for m16n8k16: lane l = 4g + q holds A rows g and g + 8,
// B column g, and D rows g and g + 8 at columns 2q, 2q + 1.
#pragma once
#include <cstdint>

namespace mmv::gpu::thread {

// d += A·B with A 16×16 and B 16×8 in bf16 and fp32 accumulation. a: the four packed bf16x2
// A registers (rows g, g+8 at columns 2q..2q+1, then at 2q+8..2q+9), b0/b1: the two B registers.
__device__ __forceinline__ void mma_bf16(float (&d)[4], const std::uint32_t (&a)[4],
                                         std::uint32_t b0, std::uint32_t b1) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
      "{%8,%9}, {%0,%1,%2,%3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// d = A·B with A 16×16 and B 16×8 in uint8 and int32 accumulation (the sums are exact).
// a0/a1: A rows g and g + 8 at columns 4q..4q+3 (one byte each), b: B rows 4q..4q+3 of column g.
__device__ __forceinline__ void mma_u8(std::uint32_t (&d)[4], std::uint32_t a0, std::uint32_t a1,
                                       std::uint32_t b) {
  asm("mma.sync.aligned.m16n8k16.row.col.s32.u8.u8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, "
      "{%7,%7,%7,%7};"
      : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
      : "r"(a0), "r"(a1), "r"(b), "r"(0u));
}

}  // namespace mmv::gpu::thread

namespace mmv::gpu::thread {

// x rounded to tf32 (10 mantissa bits, round to nearest away), as an fp32 bit pattern.
__device__ __forceinline__ std::uint32_t to_tf32(float x) {
  std::uint32_t r;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
  return r;
}

// d += A·B with A 16×8 and B 8×8 in tf32, fp32 accumulation (PTX m16n8k8 layouts: a0..a3 =
// A(g, q), A(g+8, q), A(g, q+4), A(g+8, q+4); b0, b1 = B(q, g), B(q+4, g); d as for m16n8k16).
__device__ __forceinline__ void mma_tf32(float (&d)[4], const std::uint32_t (&a)[4], std::uint32_t b0,
                                         std::uint32_t b1) {
  asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

}  // namespace mmv::gpu::thread
