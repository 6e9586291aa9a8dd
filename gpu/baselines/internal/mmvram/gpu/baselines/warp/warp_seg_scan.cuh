// Warp level of the CUDA-core segmented scans: two inclusive scans of per-lane summary pairs,
// the flag-transform (Schwartz operator) form and the Sengupta et al. min-index form.
#pragma once
#include <cstdint>

#include "mmvram/gpu/baselines/thread/seg_pair.cuh"

namespace mmv::gpu::baselines {

constexpr unsigned full_warp = 0xffffffffu;

template <class T>
__device__ inline seg_pair<T> shfl_up_pair(seg_pair<T> p, unsigned delta) {
  return {__shfl_up_sync(full_warp, p.value, delta), __shfl_up_sync(full_warp, p.flag, delta)};
}

// Flag transform: Hillis-Steele over (flag, value) pairs with the Schwartz operator,
// offsets 1, 2, 4, 8, 16. Lane l returns the combination of lanes 0..l.
struct flag_transform_warp_scan {
  template <class T>
  __device__ static seg_pair<T> inclusive(seg_pair<T> p, unsigned lane) {
#pragma unroll
    for (unsigned d = 1; d < 32; d <<= 1) {
      const seg_pair<T> up = shfl_up_pair(p, d);
      if (lane >= d) p = schwartz(up, p);
    }
    return p;
  }
};

// Min-index (Sengupta et al.): mindex = max-scan of the head lane index (computed by the warp
// vote: highest flagged lane <= l), then offsets 1..16 add only while lane >= mindex + offset.
struct min_index_warp_scan {
  template <class T>
  __device__ static seg_pair<T> inclusive(seg_pair<T> p, unsigned lane) {
    const unsigned upto = __ballot_sync(full_warp, p.flag != 0u) & (0xffffffffu >> (31u - lane));
    const unsigned mindex = upto ? 31u - static_cast<unsigned>(__clz(static_cast<int>(upto))) : 0u;
#pragma unroll
    for (unsigned d = 1; d < 32; d <<= 1) {
      const T up = __shfl_up_sync(full_warp, p.value, d);
      if (lane >= mindex + d) p.value = wrap_add(up, p.value);
    }
    p.flag = upto != 0u ? 1u : 0u;
    return p;
  }
};

}  // namespace mmv::gpu::baselines
