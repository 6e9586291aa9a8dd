// Data movement of the cuda backend: vector shift, constants and index patterns, gather and
// scatter, COMPRESS and resize (REVSPEC and the block prefix sums: block_walk.cu). Every index
// is checked on the device; an out-of-range one is reported and its access skipped.
#include "device_common.cuh"

#include <cub/device/device_reduce.cuh>
#include <type_traits>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

namespace mmv::cuda_ops {

template <class T>
void shift_impl(const context& c, const T* a, std::int64_t m, std::int64_t offset, T fill, T* out) {
  for_each(c, m, [=] __device__(std::int64_t i) {
    const std::int64_t j = i - offset;
    out[i] = (j >= 0 && j < m) ? a[j] : fill;
  });
}
void shift(const context& c, const word* a, std::int64_t m, std::int64_t offset, word fill, word* out) {
  // A fill outside B bits is a width error only where it lands (as on the simulate backend).
  for_each(c, m, [=] __device__(std::int64_t i) {
    const std::int64_t j = i - offset;
    out[i] = (j >= 0 && j < m) ? a[j] : checked(c, i, fill);
  });
}
void shift(const context& c, const real* a, std::int64_t m, std::int64_t offset, real fill, real* out) { shift_impl(c, a, m, offset, fill, out); }

void fill(const context& c, word value, word* out, std::int64_t m) {
  for_each(c, m, [=] __device__(std::int64_t i) { out[i] = checked(c, i, value); });
}
void fill(const context& c, real value, real* out, std::int64_t m) {
  for_each(c, m, [=] __device__(std::int64_t i) { out[i] = value; });
}

void iota(const context& c, word start, word step, std::int64_t block, word* out, std::int64_t m) {
  for_each(c, m, [=] __device__(std::int64_t i) { out[i] = checked(c, i, vcu::iota(start, step, block, i)); });
}
void lane_index(const context& c, std::int64_t block, word* out, std::int64_t m) {
  for_each(c, m, [=] __device__(std::int64_t i) { out[i] = checked(c, i, vcu::lane_index(block, i)); });
}

template <class T>
void gather_impl(const context& c, const T* a, std::int64_t a_size, const word* idx, T* out, std::int64_t m) {
  for_each(c, m, [=] __device__(std::int64_t i) {
    const word j = idx[i];
    if (j < 0 || j >= a_size) {
      report(c.err, index_range, c.seq, i, j);
      out[i] = T{0};
    } else {
      out[i] = a[j];
    }
  });
}
void gather(const context& c, const word* a, std::int64_t a_size, const word* idx, word* out, std::int64_t m) { gather_impl(c, a, a_size, idx, out, m); }
void gather(const context& c, const real* a, std::int64_t a_size, const word* idx, real* out, std::int64_t m) { gather_impl(c, a, a_size, idx, out, m); }

template <class T>
void gather_strided_impl(const context& c, const T* a, std::int64_t start, std::int64_t stride, T* out, std::int64_t count) {
  for_each(c, count, [=] __device__(std::int64_t i) { out[i] = a[start + i * stride]; });
}
void gather_strided(const context& c, const word* a, std::int64_t start, std::int64_t stride, word* out, std::int64_t count) { gather_strided_impl(c, a, start, stride, out, count); }
void gather_strided(const context& c, const real* a, std::int64_t start, std::int64_t stride, real* out, std::int64_t count) { gather_strided_impl(c, a, start, stride, out, count); }

template <class T>
void scatter_impl(const context& c, const T* dst, std::int64_t dst_size, const word* idx, const T* v, std::int64_t m, T* out) {
  check(cudaMemcpyAsync(out, dst, static_cast<std::size_t>(dst_size) * sizeof(T), cudaMemcpyDeviceToDevice, c.stream), "scatter copy");
  for_each(c, m, [=] __device__(std::int64_t i) {
    const word j = idx[i];
    if (j < 0 || j >= dst_size) report(c.err, index_range, c.seq, i, j);
    else out[j] = v[i];
  });
}
void scatter(const context& c, const word* dst, std::int64_t dst_size, const word* idx, const word* v, std::int64_t m, word* out) { scatter_impl(c, dst, dst_size, idx, v, m, out); }
void scatter(const context& c, const real* dst, std::int64_t dst_size, const word* idx, const real* v, std::int64_t m, real* out) { scatter_impl(c, dst, dst_size, idx, v, m, out); }

namespace {
struct flag_value {
  const context c;
  const word* mask;
  __device__ word operator()(std::int64_t i) const { return flag(c, i, mask[i]); }
};
}  // namespace

std::int64_t count_set(const context& c, const word* mask, std::int64_t n) {
  if (n == 0) return 0;
  const auto total = allocate(sizeof(word), c.stream, "compress count");
  const auto values = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), flag_value{c, mask});
  std::size_t bytes = 0;
  check(cub::DeviceReduce::Sum(nullptr, bytes, values, total.as<word>(), n, c.stream), "compress count");
  const auto scratch = allocate(bytes, c.stream, "compress count");
  check(cub::DeviceReduce::Sum(scratch.get(), bytes, values, total.as<word>(), n, c.stream), "compress count");
  word host = 0;
  check(cudaMemcpyAsync(&host, total.get(), sizeof(word), cudaMemcpyDeviceToHost, c.stream), "compress count");
  check(cudaStreamSynchronize(c.stream), "compress count");
  return host;
}

template <class T>
void compress_impl(const context& c, const T* a, const word* mask, const word* pos, std::int64_t n, T* out, std::int64_t count) {
  for_each(c, n, [=] __device__(std::int64_t i) {
    if (mask[i] != 1) return;
    const word p = pos[i];
    if (p < 0 || p >= count) report(c.err, index_range, c.seq, i, p);
    else out[p] = a[i];
  });
}
void compress(const context& c, const word* a, const word* mask, const word* pos, std::int64_t n, word* out, std::int64_t count) { compress_impl(c, a, mask, pos, n, out, count); }
void compress(const context& c, const real* a, const word* mask, const word* pos, std::int64_t n, real* out, std::int64_t count) { compress_impl(c, a, mask, pos, n, out, count); }

void resize(const context& c, const word* a, std::int64_t a_size, std::int64_t m, word fill, word* out) {
  for_each(c, m, [=] __device__(std::int64_t i) { out[i] = i < a_size ? a[i] : checked(c, i, fill); });
}
void resize(const context& c, const real* a, std::int64_t a_size, std::int64_t m, real fill, real* out) {
  for_each(c, m, [=] __device__(std::int64_t i) { out[i] = i < a_size ? a[i] : fill; });
}

}  // namespace mmv::cuda_ops
