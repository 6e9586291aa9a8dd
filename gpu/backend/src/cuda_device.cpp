// The cuda backend's device side (cuda_device.hpp).
#include "cuda_device.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>

#include "mmvram/gpu/runtime/error.hpp"

namespace mmv::gpu::cuda_impl {

namespace {

// Returns f(); a gpu/runtime failure in it is rethrown as the machine's model_error "cuda backend:
// <prefix><runtime's message>". The one place a cuda_error becomes a model_error.
template <class F>
auto reported(const std::string& prefix, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const gpu::cuda_error& err) {
    throw model_error("cuda backend: " + prefix + err.what());
  }
}

}  // namespace

void check(cudaError_t e, const char* what) {
  reported("", [&] { gpu::runtime::check(e, what); });
}

void check(cublasStatus_t st, const char* what) {
  if (st != CUBLAS_STATUS_SUCCESS)
    throw model_error(std::string("cuda backend: cuBLAS ") + what + " failed (status " + std::to_string(static_cast<int>(st)) + ")");
}

runtime::async_buffer allocate(std::size_t bytes, cudaStream_t stream, const char* what) {
  return reported(std::string(what) + ": ", [&] { return runtime::async_buffer(bytes, stream); });
}

shared_device& shared_device::get() {
  static shared_device& d = *[] {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0)
      throw model_error("backend 'cuda': no CUDA device is present on this machine");
    cudaStream_t stream = nullptr;
    cublasHandle_t blas = nullptr;
    check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "stream");
    cudaMemPool_t pool;
    int device = 0;
    check(cudaGetDevice(&device), "device");
    check(cudaDeviceGetDefaultMemPool(&pool, device), "memory pool");
    std::uint64_t keep = UINT64_MAX;  // keep freed blocks for reuse: allocations stay off the timeline
    check(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep), "memory pool");
    const cuda_ops::blas_library& lib = cuda_ops::blas();  // loaded here, by the first cuda machine
    check(lib.create(&blas), "cublasCreate");
    lib.set_math_mode(blas, CUBLAS_DEFAULT_MATH);
    return new shared_device(stream, blas);
  }();
  return d;
}

void shared_device::make_branches(int count) {
  const cuda_ops::blas_library& lib = cuda_ops::blas();
  while (static_cast<int>(branch_streams.size()) < count) {
    cudaStream_t s = nullptr;
    cublasHandle_t h = nullptr;
    check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
    branch_streams.push_back(s);
    check(lib.create(&h), "cublasCreate");
    lib.set_math_mode(h, CUBLAS_DEFAULT_MATH);
    branch_blas.push_back(h);
  }
  if (!check_stream) check(cudaStreamCreateWithFlags(&check_stream, cudaStreamNonBlocking), "stream");
}

error_slots::error_slots(cudaStream_t stream, int count) : stream_(stream), count_(count) {
  reported("error slot: ", [&] {
    err_ = runtime::device_buffer(sizeof(cuda_ops::error_slot) * static_cast<std::size_t>(count));
    nonfinite_ = runtime::device_buffer(sizeof(cuda_ops::nonfinite_slot));
  });
  check(cudaMemsetAsync(error(), 0, sizeof(cuda_ops::error_slot) * static_cast<std::size_t>(count_), stream_), "error slot");
  check(cudaMemsetAsync(nonfinite(), 0xff, sizeof(cuda_ops::nonfinite_slot), stream_), "error slot");
}

void error_slots::raise_error(const std::vector<std::string>& names, int word_bits) const {
  std::vector<cuda_ops::error_slot> all(static_cast<std::size_t>(count_));
  const std::size_t bytes = sizeof(cuda_ops::error_slot) * all.size();
  check(cudaMemcpyAsync(all.data(), error(), bytes, cudaMemcpyDeviceToHost, stream_), "error slot");
  check(cudaStreamSynchronize(stream_), "error slot");
  const cuda_ops::error_slot* first = nullptr;
  for (const auto& e : all)
    if (e.kind != cuda_ops::no_error && (!first || e.seq < first->seq)) first = &e;
  if (!first) return;
  const cuda_ops::error_slot e = *first;
  check(cudaMemsetAsync(error(), 0, bytes, stream_), "error slot");
  const std::string op = e.seq >= 0 && static_cast<std::size_t>(e.seq) < names.size() ? names[static_cast<std::size_t>(e.seq)] : "?";
  const __int128 value = (static_cast<__int128>(e.value_hi) << 64) | static_cast<unsigned long long>(e.value_lo);
  if (e.kind == cuda_ops::width) throw width_error(op, e.index, mmv::detail::to_string(value), word_bits);
  const char* what = e.kind == cuda_ops::index_range ? "index out of range" : e.kind == cuda_ops::not_a_flag ? "flag/mask not 0 or 1" : "bit index outside the word";
  throw model_error(op + ": " + what + " (value " + std::to_string(static_cast<long long>(value)) + " at position " +
                    std::to_string(e.index) + ", found on the device)");
}

std::optional<nonfinite_result> error_slots::first_nonfinite(const std::vector<std::string>& names) const {
  cuda_ops::nonfinite_slot h{};
  check(cudaMemcpyAsync(&h, nonfinite(), sizeof h, cudaMemcpyDeviceToHost, stream_), "non-finite slot");
  check(cudaStreamSynchronize(stream_), "non-finite slot");
  if (h.seq == ~0ull) return std::nullopt;
  const unsigned long long kind = h.key & 3;
  const double value = kind == 2 ? std::nan("") : kind == 0 ? HUGE_VAL : -HUGE_VAL;
  const std::size_t seq = static_cast<std::size_t>(h.seq);
  return nonfinite_result{static_cast<std::int64_t>(h.seq) + 1, seq < names.size() ? names[seq] : "?",
                          static_cast<std::int64_t>(h.key >> 2), value};
}

void staging_arena::upload(void* dst, const void* src, std::size_t bytes, cudaStream_t stream) {
  if (bytes > max_bytes) {
    check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream), "upload");
    check(cudaStreamSynchronize(stream), "upload");
    return;
  }
  if (used_ + bytes > bytes_) {
    check(cudaStreamSynchronize(stream), "upload");
    used_ = 0;
    if (bytes > bytes_) {
      if (data_) check(cudaFreeHost(std::exchange(data_, nullptr)), "pinned staging");
      const std::size_t grown = std::max(bytes, std::min(max_bytes, 2 * bytes_ + (std::size_t{1} << 16)));
      bytes_ = 0;
      check(cudaMallocHost(&data_, grown), "pinned staging");
      bytes_ = grown;
    }
  }
  std::memcpy(data_ + used_, src, bytes);
  check(cudaMemcpyAsync(dst, data_ + used_, bytes, cudaMemcpyHostToDevice, stream), "upload");
  used_ += (bytes + 255) / 256 * 256;
}

void staging_arena::take_spare(shared_device& d) {
  std::swap(data_, d.spare_staging), std::swap(bytes_, d.spare_staging_bytes);
}

void staging_arena::give_back(shared_device& d) {
  if (!d.spare_staging) {
    d.spare_staging = std::exchange(data_, nullptr), d.spare_staging_bytes = std::exchange(bytes_, 0);
  } else if (data_) {
    cudaFreeHost(std::exchange(data_, nullptr));
    bytes_ = 0;
  }
}

}  // namespace mmv::gpu::cuda_impl
