// Streams and events of the GPU half: an owning non-blocking stream, and a pair of CUDA events
// that time one region of a stream.
#pragma once
#include <cuda_runtime_api.h>

namespace mmv::gpu::runtime {

// An owning cudaStreamNonBlocking stream (never synchronizes with the legacy default stream);
// destroyed after the work queued on it has finished. Throws cuda_error if creation fails.
class stream {
 public:
  stream();
  stream(const stream&) = delete;
  stream& operator=(const stream&) = delete;
  ~stream();
  cudaStream_t get() const { return s_; }
  operator cudaStream_t() const { return s_; }
  void synchronize() const;  // throws cuda_error carrying the first failure of the queued work

 private:
  cudaStream_t s_ = nullptr;
};

// CUDA events around one region on a stream; elapsed_ms() waits for the stop event.
class event_timer {
 public:
  event_timer();
  event_timer(const event_timer&) = delete;
  event_timer& operator=(const event_timer&) = delete;
  ~event_timer();
  void start(cudaStream_t s);
  void stop(cudaStream_t s);
  float elapsed_ms();

 private:
  cudaEvent_t begin_ = nullptr, end_ = nullptr;
};

}  // namespace mmv::gpu::runtime
