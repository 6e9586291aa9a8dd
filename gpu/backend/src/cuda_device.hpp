// The cuda backend's device side (internal to gpu/backend), below the backend class of
// cuda_backend.cpp: the machine's vectors in device memory (device_buffer, on gpu/runtime's
// async_buffer), the one stream and cuBLAS handle of the process (shared_device), a machine's
// device error slots (error_slots) and its pinned staging arena for loads (staging_arena).
// Every failure is reported as the machine's model_error, through cuda_check.hpp's check().
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "blas_library.hpp"
#include "cuda_check.hpp"
#include "device_ops.hpp"
#include "mmvram/gpu/runtime/buffer.hpp"
#include "mmvram/model/backend.hpp"

namespace mmv::gpu::cuda_impl {

// A vector of n elements in device memory, allocated and freed in the order of `stream` (ptr is
// null when n is 0). `bound` is a host-known bound on |value| (exact for uploads, 2^(B-1) for
// computed words), which picks the MMU's exact path. Throws model_error when allocation fails.
template <class T>
class device_buffer final : public buffer<T> {
 public:
  device_buffer(std::int64_t n, cudaStream_t stream, double bound)
      : buffer<T>(n),
        memory_(allocate(n > 0 ? static_cast<std::size_t>(n) * sizeof(T) : 0, stream, "allocation")),
        ptr(memory_.as<T>()),
        bound(bound) {}

 private:
  runtime::async_buffer memory_;

 public:
  T* const ptr;
  const double bound;
};

// The device pointer and the value bound of a machine vector (always a device_buffer here).
template <class T>
const T* dev(const buffer<T>& b) { return static_cast<const device_buffer<T>&>(b).ptr; }
template <class T>
double bound_of(const buffer<T>& b) { return static_cast<const device_buffer<T>&>(b).bound; }

// One stream and one cuBLAS handle for every machine of the process: machines run one after
// another, and on one stream the stream-ordered allocator reuses what an earlier machine freed
// instead of mapping new memory on the timeline. A finished machine hands its CUDA events and
// its pinned staging arena on to the next one, so that a fresh machine does not create them
// while its instructions are being issued (a few microseconds of host time each).
struct shared_device {
  cudaStream_t stream = nullptr;
  cublasHandle_t blas = nullptr;
  std::mutex lock;                          // guards the spares
  std::vector<cudaEvent_t> spare_events;    // handed back by finished machines
  char* spare_staging = nullptr;            // a finished machine's pinned arena
  std::size_t spare_staging_bytes = 0;
  // Built by the first call (throws model_error without a CUDA device) and never destroyed (a
  // machine may outlive static destruction); its spares are released with the process.
  static shared_device& get();

 private:
  shared_device(cudaStream_t s, cublasHandle_t b) : stream(s), blas(b) {}
};

// A machine's two device slots, written by the device operations (device_ops.hpp): the first
// data error of the run and the first non-finite real result. Both live in gpu/runtime
// device buffers, freed with the machine.
class error_slots {
 public:
  // Allocates the slots and clears them on `stream` (no error; no non-finite result, seq ~0).
  // Throws model_error when that fails.
  explicit error_slots(cudaStream_t stream);
  cuda_ops::error_slot* error() const { return err_.as<cuda_ops::error_slot>(); }
  cuda_ops::nonfinite_slot* nonfinite() const { return nonfinite_.as<cuda_ops::nonfinite_slot>(); }
  // Waits for the stream, then throws the first data error the device recorded, if any, as
  // width_error or model_error naming the instruction (names: the ops by ledger position), and
  // clears the slot on the stream.
  void raise_error(const std::vector<std::string>& names, int word_bits) const;
  // Waits for the stream, then returns the first inf/nan a real instruction produced, if any.
  std::optional<nonfinite_result> first_nonfinite(const std::vector<std::string>& names) const;

 private:
  cudaStream_t stream_;
  runtime::device_buffer err_, nonfinite_;
};

// Host -> device through a pinned staging arena, so that a load in the middle of an algorithm
// (a constant matrix) is an asynchronous copy, not a drain of the stream. The arena grows by
// doubling up to max_bytes and is reused from its start once the stream has been synchronised
// (rewind()); a load larger than max_bytes is copied synchronously. A machine takes a finished
// machine's arena at its start and hands its own on at its end (shared_device's spare).
class staging_arena {
 public:
  static constexpr std::size_t max_bytes = std::size_t{64} << 20;
  staging_arena() = default;
  staging_arena(const staging_arena&) = delete;  // owns its pinned memory until give_back()
  staging_arena& operator=(const staging_arena&) = delete;
  // Enqueues the copy of `bytes` at host src to device dst on `stream` (bytes > 0).
  void upload(void* dst, const void* src, std::size_t bytes, cudaStream_t stream);
  // The stream has drained: the whole arena is free again.
  void rewind() { used_ = 0; }
  // Takes d's spare arena, if any. The caller holds d.lock.
  void take_spare(shared_device& d);
  // Hands the arena to d as its spare, or frees it when d has one. The caller holds d.lock and
  // the stream has drained.
  void give_back(shared_device& d);

 private:
  char* data_ = nullptr;
  std::size_t bytes_ = 0, used_ = 0;
};

}  // namespace mmv::gpu::cuda_impl
