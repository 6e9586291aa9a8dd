// Owning memory of the GPU half: device_buffer (cudaMalloc, freed in its destructor),
// async_buffer (cudaMallocAsync on a stream, freed in that stream's order) and host_buffer
// (page-locked when large, or always). The cuda backend's vectors are built on async_buffer (the
// backend adds the model's value bound and reports failures as its model_error).
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <utility>

#include "mmvram/gpu/runtime/error.hpp"

namespace mmv::gpu::runtime {

// An owning cudaMalloc allocation of `bytes` (0: no allocation, get() == nullptr). Throws
// cuda_error naming the size when the allocation fails.
class device_buffer {
 public:
  device_buffer() = default;
  explicit device_buffer(std::size_t bytes);
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  device_buffer(device_buffer&& o) noexcept;
  device_buffer& operator=(device_buffer&& o) noexcept;
  ~device_buffer();
  void* get() const { return ptr_; }
  template <class T> T* as() const { return static_cast<T*>(ptr_); }
  std::size_t bytes() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

// An owning stream-ordered allocation of `bytes` on `stream` (0: no allocation, get() ==
// nullptr), freed by cudaFreeAsync on the same stream in its destructor (unchecked: a destructor
// does not throw). Move-only. Throws cuda_error naming the size when the allocation fails.
class async_buffer {
 public:
  async_buffer() = default;
  async_buffer(std::size_t bytes, cudaStream_t stream) : stream_(stream) {
    if (bytes == 0) return;
    const cudaError_t e = cudaMallocAsync(&ptr_, bytes, stream);
    if (e != cudaSuccess) {
      ptr_ = nullptr;
      check(e, "cudaMallocAsync(" + std::to_string(bytes) + " bytes)");
    }
    bytes_ = bytes;
  }
  async_buffer(const async_buffer&) = delete;
  async_buffer& operator=(const async_buffer&) = delete;
  async_buffer(async_buffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(std::exchange(o.bytes_, 0)), stream_(o.stream_) {}
  async_buffer& operator=(async_buffer&& o) noexcept {
    if (this != &o) {
      if (ptr_ != nullptr) cudaFreeAsync(ptr_, stream_);
      ptr_ = std::exchange(o.ptr_, nullptr);
      bytes_ = std::exchange(o.bytes_, 0);
      stream_ = o.stream_;
    }
    return *this;
  }
  ~async_buffer() {
    if (ptr_ != nullptr) cudaFreeAsync(ptr_, stream_);
  }
  void* get() const { return ptr_; }
  template <class T> T* as() const { return static_cast<T*>(ptr_); }
  std::size_t bytes() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
  cudaStream_t stream_ = nullptr;
};

// When a host_buffer is page-locked: when_large (64 MiB or more, and only if cudaMallocHost
// succeeds, else plain memory) or always (cudaMallocHost or cuda_error: asynchronous copies
// that must not fall back to staged ones).
enum class pinning { when_large, always };

// A host allocation of `bytes` (0: one byte), page-locked as `p` says. when_large throws
// std::bad_alloc when neither allocation succeeds; always throws cuda_error naming
// cudaMallocHost when pinning fails.
class host_buffer {
 public:
  explicit host_buffer(std::size_t bytes, pinning p = pinning::when_large);
  host_buffer(const host_buffer&) = delete;
  host_buffer& operator=(const host_buffer&) = delete;
  ~host_buffer();
  void* get() const { return ptr_; }
  template <class T> T* as() const { return static_cast<T*>(ptr_); }

 private:
  void* ptr_ = nullptr;
  bool pinned_ = false;
};

}  // namespace mmv::gpu::runtime
