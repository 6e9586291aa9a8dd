// CUB baselines, the copy, and the preparation of keys and offsets from flags. CUB gets 32-bit
// item counts when n fits (as in the anchor measurements, docs/gpu_targets.md) and 64-bit ones otherwise.
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>

#include <climits>
#include <string>

#include "mmvram/gpu/baselines/baselines.hpp"
#include "mmvram/gpu/baselines/thread/seg_pair.cuh"
#include "mmvram/gpu/runtime/error.hpp"

namespace mmv::gpu::baselines {
namespace {

using runtime::check;

// Calls f with n as int32 when it fits, else as int64.
template <class F>
cudaError_t with_count(std::int64_t n, F&& f) {
  return n <= INT_MAX ? f(static_cast<std::int32_t>(n)) : f(n);
}

// Integer sums go through uint32 so that wrap-around is defined.
inline const std::uint32_t* as_u32(const std::int32_t* p) { return reinterpret_cast<const std::uint32_t*>(p); }
inline std::uint32_t* as_u32(std::int32_t* p) { return reinterpret_cast<std::uint32_t*>(p); }
inline const float* as_u32(const float* p) { return p; }
inline float* as_u32(float* p) { return p; }

// head_at(i) = 1 when a segment starts at i (i == 0 or flags[i] != 0).
struct head_at {
  const std::uint8_t* flags;
  __host__ __device__ std::uint32_t operator()(std::int64_t i) const {
    return (i == 0 || flags[i] != 0) ? 1u : 0u;
  }
};

template <class T>
struct make_pair_at {
  const T* x;
  const std::uint8_t* flags;
  __host__ __device__ seg_pair<T> operator()(std::int64_t i) const {
    return {x[i], (i == 0 || flags[i] != 0) ? 1u : 0u};
  }
};
template <class T>
struct pair_value {
  __host__ __device__ T operator()(const seg_pair<T>& p) const { return p.value; }
};
template <class T>
struct schwartz_op {
  __host__ __device__ seg_pair<T> operator()(const seg_pair<T>& a, const seg_pair<T>& b) const {
    return schwartz(a, b);
  }
};

__global__ void finish_offsets(std::int64_t* offsets, const std::int64_t* num_segments, std::int64_t n) {
  offsets[*num_segments] = n;
}

template <class T>
void inclusive_sum(const T* in, T* out, std::int64_t n, void* temp, std::size_t& temp_bytes,
                   cudaStream_t stream) {
  check(with_count(n, [&](auto m) {
          return cub::DeviceScan::InclusiveSum(temp, temp_bytes, as_u32(in), as_u32(out), m, stream);
        }),
        "cub_inclusive_sum");
}

// The low byte of a segment id: a uint8 key.
struct low_byte {
  __host__ __device__ std::uint8_t operator()(std::uint32_t id) const { return static_cast<std::uint8_t>(id); }
};

template <class T>
void reduce_sum(const T* in, T* out, std::int64_t n, void* temp, std::size_t& temp_bytes,
                cudaStream_t stream) {
  check(with_count(n, [&](auto m) {
          return cub::DeviceReduce::Sum(temp, temp_bytes, as_u32(in), as_u32(out), m, stream);
        }),
        "cub_reduce_sum");
}

template <class K, class T>
void sum_by_key(const K* keys, const T* x, T* out, std::int64_t n, void* temp,
                std::size_t& temp_bytes, cudaStream_t stream) {
  check(with_count(n, [&](auto m) {
          return cub::DeviceScan::InclusiveSumByKey(temp, temp_bytes, keys, as_u32(x), as_u32(out), m,
                                                    ::cuda::std::equal_to<>{}, stream);
        }),
        "cub_inclusive_sum_by_key");
}

template <class T>
void flag_pair_scan(const T* x, const std::uint8_t* flags, T* out, std::int64_t n, void* temp,
                    std::size_t& temp_bytes, cudaStream_t stream) {
  auto in = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0),
                                            make_pair_at<T>{x, flags});
  auto outp = thrust::make_transform_output_iterator(out, pair_value<T>{});
  check(with_count(n, [&](auto m) {
          return cub::DeviceScan::InclusiveScan(temp, temp_bytes, in, outp, schwartz_op<T>{}, m, stream);
        }),
        "cub_flag_pair_scan");
}

template <class T>
void segmented_sum(const T* x, const std::int64_t* offsets, std::int64_t num_segments, T* sums,
                   void* temp, std::size_t& temp_bytes, cudaStream_t stream) {
  check(cub::DeviceSegmentedReduce::Sum(temp, temp_bytes, as_u32(x), as_u32(sums), num_segments,
                                        offsets, offsets + 1, stream),
        "cub_segmented_reduce_sum");
}

}  // namespace

void device_copy(const void* in, void* out, std::size_t bytes, cudaStream_t stream) {
  check(cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice, stream), "device_copy");
}

void cub_reduce_sum(const float* in, float* out, std::int64_t n, void* temp,
                    std::size_t& temp_bytes, cudaStream_t stream) {
  reduce_sum(in, out, n, temp, temp_bytes, stream);
}
void cub_reduce_sum(const std::int32_t* in, std::int32_t* out, std::int64_t n, void* temp,
                    std::size_t& temp_bytes, cudaStream_t stream) {
  reduce_sum(in, out, n, temp, temp_bytes, stream);
}

void cub_inclusive_sum(const float* in, float* out, std::int64_t n, void* temp,
                       std::size_t& temp_bytes, cudaStream_t stream) {
  inclusive_sum(in, out, n, temp, temp_bytes, stream);
}
void cub_inclusive_sum(const std::int32_t* in, std::int32_t* out, std::int64_t n, void* temp,
                       std::size_t& temp_bytes, cudaStream_t stream) {
  inclusive_sum(in, out, n, temp, temp_bytes, stream);
}

void cub_inclusive_sum_by_key(const std::int32_t* keys, const float* x, float* out, std::int64_t n,
                              void* temp, std::size_t& temp_bytes, cudaStream_t stream) {
  sum_by_key(keys, x, out, n, temp, temp_bytes, stream);
}
void cub_inclusive_sum_by_key(const std::int32_t* keys, const std::int32_t* x, std::int32_t* out,
                              std::int64_t n, void* temp, std::size_t& temp_bytes,
                              cudaStream_t stream) {
  sum_by_key(keys, x, out, n, temp, temp_bytes, stream);
}

void cub_inclusive_sum_by_key(const std::uint8_t* keys, const float* x, float* out, std::int64_t n,
                              void* temp, std::size_t& temp_bytes, cudaStream_t stream) {
  sum_by_key(keys, x, out, n, temp, temp_bytes, stream);
}
void cub_inclusive_sum_by_key(const std::uint8_t* keys, const std::int32_t* x, std::int32_t* out,
                              std::int64_t n, void* temp, std::size_t& temp_bytes,
                              cudaStream_t stream) {
  sum_by_key(keys, x, out, n, temp, temp_bytes, stream);
}

void cub_flag_pair_scan(const float* x, const std::uint8_t* flags, float* out, std::int64_t n,
                        void* temp, std::size_t& temp_bytes, cudaStream_t stream) {
  flag_pair_scan(x, flags, out, n, temp, temp_bytes, stream);
}
void cub_flag_pair_scan(const std::int32_t* x, const std::uint8_t* flags, std::int32_t* out,
                        std::int64_t n, void* temp, std::size_t& temp_bytes, cudaStream_t stream) {
  flag_pair_scan(reinterpret_cast<const std::uint32_t*>(x), flags, reinterpret_cast<std::uint32_t*>(out), n, temp,
                 temp_bytes, stream);  // as uint32: wraps without signed overflow (seg_pair.cuh)
}

void cub_segmented_reduce_sum(const float* x, const std::int64_t* offsets, std::int64_t num_segments,
                              float* sums, void* temp, std::size_t& temp_bytes, cudaStream_t stream) {
  segmented_sum(x, offsets, num_segments, sums, temp, temp_bytes, stream);
}
void cub_segmented_reduce_sum(const std::int32_t* x, const std::int64_t* offsets,
                              std::int64_t num_segments, std::int32_t* sums, void* temp,
                              std::size_t& temp_bytes, cudaStream_t stream) {
  segmented_sum(x, offsets, num_segments, sums, temp, temp_bytes, stream);
}

void make_segment_keys(const std::uint8_t* flags, std::int32_t* keys, std::int64_t n, void* temp,
                       std::size_t& temp_bytes, cudaStream_t stream) {
  auto heads = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), head_at{flags});
  check(with_count(n, [&](auto m) {
          return cub::DeviceScan::InclusiveSum(temp, temp_bytes, heads, as_u32(keys), m, stream);
        }),
        "make_segment_keys");
}

void make_segment_keys(const std::uint8_t* flags, std::uint8_t* keys, std::int64_t n, void* temp,
                       std::size_t& temp_bytes, cudaStream_t stream) {
  auto heads = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), head_at{flags});
  auto out = thrust::make_transform_output_iterator(keys, low_byte{});
  check(with_count(n, [&](auto m) { return cub::DeviceScan::InclusiveSum(temp, temp_bytes, heads, out, m, stream); }),
        "make_segment_keys");
}

void make_segment_offsets(const std::uint8_t* flags, std::int64_t* offsets,
                          std::int64_t* num_segments, std::int64_t n, void* temp,
                          std::size_t& temp_bytes, cudaStream_t stream) {
  auto heads = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), head_at{flags});
  const bool query = temp == nullptr;
  check(cub::DeviceSelect::Flagged(temp, temp_bytes, thrust::counting_iterator<std::int64_t>(0), heads,
                                   offsets, num_segments, n, stream),
        "make_segment_offsets");
  if (query) return;
  finish_offsets<<<1, 1, 0, stream>>>(offsets, num_segments, n);
  check(cudaGetLastError(), "make_segment_offsets");
}

}  // namespace mmv::gpu::baselines
