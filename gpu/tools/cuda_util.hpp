// Small CUDA helpers for the harness: error checks that throw, an owning device buffer, event
// timing, and a description of the device.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "mmvram/gpu/api.hpp"

namespace mmv::gpu::harness {

// Throws cuda_error("what: <CUDA message>") when e is not cudaSuccess.
void cuda_check(cudaError_t e, const std::string& what);

// An owning cudaMalloc allocation (bytes may be 0: then no allocation).
class device_buffer {
 public:
  device_buffer() = default;
  explicit device_buffer(std::size_t bytes);
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  device_buffer(device_buffer&& o) noexcept : ptr_(o.ptr_), bytes_(o.bytes_) { o.ptr_ = nullptr; o.bytes_ = 0; }
  device_buffer& operator=(device_buffer&& o) noexcept;
  ~device_buffer();
  void* get() const { return ptr_; }
  template <class T> T* as() const { return static_cast<T*>(ptr_); }
  std::size_t bytes() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

// A host allocation, page-locked (fast transfers) when it is 64 MiB or more and
// cudaMallocHost succeeds, else plain.
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

// CUDA events around one region on a stream; elapsed milliseconds after it completes.
class event_timer {
 public:
  event_timer();
  event_timer(const event_timer&) = delete;
  event_timer& operator=(const event_timer&) = delete;
  ~event_timer();
  void start(cudaStream_t s);
  void stop(cudaStream_t s);
  float elapsed_ms();  // synchronizes on the stop event

 private:
  cudaEvent_t begin_ = nullptr, end_ = nullptr;
};

struct device_info {
  int index = 0;
  std::string name;
  int sm_count = 0, cc_major = 0, cc_minor = 0;
  std::size_t l2_bytes = 0, memory_bytes = 0;
  int sm_clock_khz = 0;  // the SM clock's peak (clock64 counts its cycles); 0 if unknown
  int runtime_version = 0, driver_version = 0;
};
// Describes the current device; returns false with a message in `why` when none is usable.
bool current_device(device_info& info, std::string& why);
// The current device; throws cuda_error("no CUDA device: ...") when none is usable.
device_info require_device();
std::string cuda_version_string(int v);  // 13000 -> "13.0"
std::size_t free_device_bytes();

}  // namespace mmv::gpu::harness
