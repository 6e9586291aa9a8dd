// The baselines' CCCL segmented scan: forwards to libmmvram_cccl_segmented_scan.so when the build
// found the headers (MMVRAM_HAVE_CCCL_SEGMENTED_SCAN), else says why it is missing.
#include <string>

#include "mmvram/gpu/baselines/baselines.hpp"
#include "mmvram/gpu/runtime/error.hpp"
#ifdef MMVRAM_HAVE_CCCL_SEGMENTED_SCAN
#include "cccl_segmented_scan.hpp"
#endif

namespace mmv::gpu::baselines {
namespace {

template <class T, class U>
void forward(const T* x, const std::int64_t* offsets, std::int64_t num_segments, T* out, void* temp,
             std::size_t& temp_bytes, cudaStream_t stream) {
#ifdef MMVRAM_HAVE_CCCL_SEGMENTED_SCAN
  const cudaError_t e = cccl::inclusive_segmented_sum(reinterpret_cast<const U*>(x), offsets, num_segments,
                                                      reinterpret_cast<U*>(out), temp, temp_bytes, stream);
  runtime::check(e, "cccl_segmented_scan");
#else
  (void)x, (void)offsets, (void)num_segments, (void)out, (void)temp, (void)temp_bytes, (void)stream;
  throw cuda_error(
      "cccl_segmented_scan: not built (no CCCL headers with cub/device/device_segmented_scan.cuh were "
      "found; pip install nvidia-cuda-cccl, then configure again)");
#endif
}

}  // namespace

bool cccl_segmented_scan_available() {
#ifdef MMVRAM_HAVE_CCCL_SEGMENTED_SCAN
  return true;
#else
  return false;
#endif
}

void cccl_inclusive_segmented_sum(const float* x, const std::int64_t* offsets, std::int64_t num_segments,
                                  float* out, void* temp, std::size_t& temp_bytes, cudaStream_t stream) {
  forward<float, float>(x, offsets, num_segments, out, temp, temp_bytes, stream);
}
void cccl_inclusive_segmented_sum(const std::int32_t* x, const std::int64_t* offsets,
                                  std::int64_t num_segments, std::int32_t* out, void* temp,
                                  std::size_t& temp_bytes, cudaStream_t stream) {
  forward<std::int32_t, std::uint32_t>(x, offsets, num_segments, out, temp, temp_bytes, stream);
}

}  // namespace mmv::gpu::baselines
