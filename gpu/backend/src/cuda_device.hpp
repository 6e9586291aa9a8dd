// The cuda backend's device side (internal to gpu/backend), below the backend class of
// cuda_backend.cpp: the machine's vectors in device memory (device_buffer, on gpu/runtime's
// async_buffer), the one stream and cuBLAS handle of the process (shared_device), a machine's
// device error slots (error_slots) and its pinned staging arena for loads (staging_arena).
// Every failure is reported as the machine's model_error, through cuda_check.hpp's check().
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <memory>
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

// Where the memory of a vector released while a graph is being captured goes: into `deferred`,
// freed (in stream order, outside any capture) once the graph has been launched, so that no
// capture holds a free of memory allocated outside it (graph_executor.hpp).
struct release_sink {
  bool capturing = false;
  std::vector<runtime::async_buffer> deferred;
};

// The instruction that wrote a vector, for the dag executor: the event recorded after it on its
// stream, in capture number `capture` (0: none; a mark of an earlier capture is no dependency).
struct producer_mark {
  cudaEvent_t done = nullptr;
  std::uint64_t capture = 0;
  int stream = -1;
};

// A vector of n elements in device memory, allocated and freed in the order of `stream` (ptr is
// null when n is 0). `bound` is a host-known bound on |value| (exact for uploads; carried through
// the moves, select and the MMU; 2^(B-1) for other computed words), which picks the MMU's exact
// path. With a sink, its memory is handed to the
// sink instead of freed while the sink is capturing. Throws model_error when allocation fails.
template <class T>
class device_buffer final : public buffer<T> {
 public:
  device_buffer(std::int64_t n, cudaStream_t stream, double bound, std::shared_ptr<release_sink> sink = nullptr)
      : buffer<T>(n),
        sink_(std::move(sink)),
        memory_(allocate(n > 0 ? static_cast<std::size_t>(n) * sizeof(T) : 0, stream, "allocation")),
        ptr(memory_.as<T>()),
        bound(bound) {}
  ~device_buffer() override {
    if (sink_ && sink_->capturing && memory_.get() != nullptr) sink_->deferred.push_back(std::move(memory_));
  }

 private:
  std::shared_ptr<release_sink> sink_;
  runtime::async_buffer memory_;

 public:
  T* const ptr;
  const double bound;
  mutable producer_mark mark;  // the dag executor's record of the instruction that wrote it
};

// The device pointer and the value bound of a machine vector (always a device_buffer here).
template <class T>
const T* dev(const buffer<T>& b) { return static_cast<const device_buffer<T>&>(b).ptr; }
template <class T>
double bound_of(const buffer<T>& b) { return static_cast<const device_buffer<T>&>(b).bound; }
template <class T>
producer_mark& mark_of(const buffer<T>& b) { return static_cast<const device_buffer<T>&>(b).mark; }

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
  // The dag executor's streams, each with its own cuBLAS handle (their workspaces must not be
  // shared by concurrent products), and the stream of its non-finite checks; made by the first
  // call of branches(), then kept.
  std::vector<cudaStream_t> branch_streams;
  std::vector<cublasHandle_t> branch_blas;
  cudaStream_t check_stream = nullptr;
  // Makes the `count` branch streams and the check stream unless they exist (the caller holds
  // lock). Throws model_error when a stream or handle cannot be made.
  void make_branches(int count);
  // Built by the first call (throws model_error without a CUDA device) and never destroyed (a
  // machine may outlive static destruction); its spares are released with the process.
  static shared_device& get();

 private:
  shared_device(cudaStream_t s, cublasHandle_t b) : stream(s), blas(b) {}
};

// A machine's device slots, written by the device operations (device_ops.hpp): the first data
// error of the run (one slot per stream that runs instructions, so that concurrent streams do
// not race for one) and the first non-finite real result. They live in gpu/runtime device
// buffers, freed with the machine.
class error_slots {
 public:
  // Allocates `count` error slots (one per stream that runs instructions) and the non-finite
  // slot, and clears them on `stream` (no error; no non-finite result, seq ~0). Throws
  // model_error when that fails.
  explicit error_slots(cudaStream_t stream, int count = 1);
  cuda_ops::error_slot* error(int i = 0) const { return err_.as<cuda_ops::error_slot>() + i; }
  cuda_ops::nonfinite_slot* nonfinite() const { return nonfinite_.as<cuda_ops::nonfinite_slot>(); }
  // Waits for the stream, then throws the data error the device recorded first in program order
  // (the slot with the lowest instruction position), if any, as width_error or model_error
  // naming the instruction (names: the ops by ledger position), and clears the slots.
  void raise_error(const std::vector<std::string>& names, int word_bits) const;
  // Waits for the stream, then returns the first inf/nan a real instruction produced, if any.
  std::optional<nonfinite_result> first_nonfinite(const std::vector<std::string>& names) const;

 private:
  cudaStream_t stream_;
  int count_;
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
  // Whether upload() of `bytes` is an asynchronous copy from the arena as it is (no growth, no
  // synchronisation), so that it may be captured into a graph.
  bool staged(std::size_t bytes) const { return bytes > 0 && bytes <= max_bytes && used_ + bytes <= bytes_; }
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
