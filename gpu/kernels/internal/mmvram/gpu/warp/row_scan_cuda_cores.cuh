// Warp layer: the CUDA-core twins of row_scan.cuh's tensor-core scans over the warp's 32×16
// block (layout in layout.cuh): running sums within a lane and shuffles over a row's four
// lanes (quad_exclusive) or the warp. row_scan.cuh includes this file; its fp32 scans fall back
// to these for non-finite data, and its unit dispatch (…_on<U>) runs them for the V0 variant.
#pragma once
#include <cstdint>

namespace mmv::gpu::warp {

// Inclusive scan of one value per lane over the row's four lanes (lane 4g + q, q = 0..3):
// returns the lanes before this one (0 for q = 0) and sets `total` to the row's.
template <class T>
__device__ __forceinline__ T quad_exclusive(T x, T& total) {
  const int q = threadIdx.x & 3;
  T incl = x;
#pragma unroll
  for (int d = 1; d < 4; d *= 2) {
    const T y = __shfl_up_sync(~0u, incl, d, 4);
    if (q >= d) incl = y + incl;
  }
  total = __shfl_sync(~0u, incl, 3, 4);
  const T before = __shfl_up_sync(~0u, incl, 1, 4);
  return q == 0 ? T(0) : before;
}

// row_scan on the CUDA cores: in-lane running sums, then a scan over the row's four lanes.
template <class T>
__device__ __forceinline__ void row_scan_cuda_cores(const T (&v)[4][4], T (&xs)[4][4], T (&tot)[4]) {
  const int q = threadIdx.x & 3;
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    T s[4];
    s[0] = v[c][0];
#pragma unroll
    for (int e = 1; e < 4; ++e) s[e] = s[e - 1] + v[c][e];
    const T before = quad_exclusive(s[3], tot[c]);
#pragma unroll
    for (int e = 0; e < 4; ++e) xs[c][e] = q == 0 ? s[e] : before + s[e];
  }
}

// lane_scan<M> on the CUDA cores: running sums of the lane's four items of chunks 2M, 2M + 1.
template <int M, class T>
__device__ __forceinline__ void lane_scan_cuda_cores(const T (&v)[4][4], T (&S)[2][4]) {
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    S[h][0] = v[2 * M + h][0];
#pragma unroll
    for (int e = 1; e < 4; ++e) S[h][e] = S[h][e - 1] + v[2 * M + h][e];
  }
}

// warp_total on the CUDA cores: the lane's 16 items, then a butterfly over the warp.
template <class T>
__device__ __forceinline__ T warp_total_cuda_cores(const T (&v)[4][4]) {
  T x = T(0);
#pragma unroll
  for (int c = 0; c < 4; ++c)
#pragma unroll
    for (int e = 0; e < 4; ++e) x += v[c][e];
#pragma unroll
  for (int o = 1; o < 32; o *= 2) x += __shfl_xor_sync(~0u, x, o);
  return x;
}

// flag_scan on the CUDA cores: in-lane popcounts, then a scan over the row's four lanes.
__device__ __forceinline__ void flag_scan_cuda_cores(const std::uint32_t (&fw)[4], std::uint32_t (&F)[4][4],
                                                     std::uint32_t (&nf)[4]) {
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    const std::uint32_t before = quad_exclusive(std::uint32_t(__popc(fw[c])), nf[c]);
#pragma unroll
    for (int e = 0; e < 4; ++e) F[c][e] = before + __popc(fw[c] & (0xffffffffu >> (24 - 8 * e)));
  }
}

}  // namespace mmv::gpu::warp
