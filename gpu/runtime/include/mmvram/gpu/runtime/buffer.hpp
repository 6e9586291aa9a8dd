// Owning memory of the GPU half: device_buffer (cudaMalloc, freed in its destructor) and
// host_buffer (page-locked when large). Stream-ordered vectors of the cuda backend are the
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

// A host allocation of `bytes`, page-locked (fast transfers) when it is 64 MiB or more and
// cudaMallocHost succeeds, else plain; throws std::bad_alloc when neither succeeds.
class host_buffer {
 public:
  explicit host_buffer(std::size_t bytes);
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
