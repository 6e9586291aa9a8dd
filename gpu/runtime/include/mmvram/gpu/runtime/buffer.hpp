// Owning memory of the GPU half: device_buffer (cudaMalloc, freed in its destructor) and
// host_buffer (page-locked when large, or always). Stream-ordered vectors of the cuda backend are the
// backend's own (they carry the model's value bound), built on check() from error.hpp.
#pragma once
#include <cstddef>

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
