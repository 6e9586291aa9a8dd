// How the cuda backend's instructions reach the device and how they are timed (internal to
// gpu/backend): the executors of machine_config::executor. "in-order" enqueues each instruction
// on the machine's one stream with CUDA events around it; "graph" captures the instructions
// into CUDA graphs and replays each once, timing the graphs; "dag" captures them on several
// streams along their dependencies (docs/backends.md). cuda_backend.cpp forwards the machine's
// instructions and asks its executor where each runs.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "cuda_device.hpp"

namespace mmv::gpu::cuda_impl {

// Where one instruction's device operations go: a stream, the cuBLAS handle bound to it and the
// error slot its kernels report into.
struct lane {
  cudaStream_t stream = nullptr;
  cublasHandle_t blas = nullptr;
  cuda_ops::error_slot* err = nullptr;
};

// CUDA events for reuse (creating one costs host time while instructions are issued).
class event_pool {
 public:
  // A free event, created when none is free. Throws model_error when creation fails.
  cudaEvent_t get();
  void put(cudaEvent_t e) { free_.push_back(e); }
  std::vector<cudaEvent_t>& spares() { return free_; }

 private:
  std::vector<cudaEvent_t> free_;
};

class executor {
 public:
  virtual ~executor() = default;
  // The machine begins an instruction; `compute` is false for a load (a host transfer).
  virtual void begin(bool compute) = 0;
  // Before an instruction's first device operation (the allocation of its result): graph and
  // dag open a capture here when none is open.
  virtual void prepare() = 0;
  // The lane of the current instruction, which reads vectors written by `inputs` (marks of
  // device_buffer; null entries are skipped). in-order and graph: the machine's stream; dag:
  // the stream the dependency rule picks, after waiting for the inputs.
  virtual lane issue(std::initializer_list<const producer_mark*> inputs) = 0;
  // The current instruction's operations are enqueued: `out` (may be null) records who wrote its
  // result. Returns the stream on which the check of its result runs after it (`checked`: one
  // follows).
  virtual cudaStream_t end(producer_mark* out, bool checked) = 0;
  // The current instruction threw: it retires no record.
  virtual void abandon() = 0;
  // The host is about to wait for the device or to enqueue work outside any capture (a
  // download, compress's count, an upload): graph and dag end the open capture and launch it.
  virtual void host_wait() = 0;
  // An upload is about to be enqueued on the origin stream; `staged` when it is a copy from the
  // pinned staging arena that needs no synchronisation. By default the host waits (host_wait).
  virtual void before_upload(bool staged) {
    (void)staged;
    host_wait();
  }
  // Work outside the graphs that belongs to the run's device time (compress's count), between
  // two host_wait-ed points: graph and dag time it with an event pair.
  virtual void eager_begin() {}
  virtual void eager_end() {}
  // A result is about to be read back (in-order's span-only mode marks the run's end here).
  virtual void result_read() {}
  // The device times of the `bracketed` instructions since the last call (measured_times of
  // backend.hpp); `sync_and_raise` waits for the device and throws its first data error.
  virtual measured_times collect(std::int64_t bracketed, const std::function<void()>& sync_and_raise) = 0;
  // Ends an open capture without launching it and returns the events (the machine is being
  // destroyed; the stream is synchronised after this). Never throws.
  virtual void close() noexcept = 0;
};

// The number of branch streams of the dag executor (each with its own error slot).
constexpr int dag_branches = 4;

// The executor `name` names ("in-order", "graph", "dag") for a machine whose instructions run on
// `origin` (with time_instructions: in-order's events around each). `sink` receives the memory
// of vectors released during a capture. dag: the branch lanes are device's branch streams (made
// here; the caller holds device.lock) with `slots`' error slots 1..dag_branches, its checks run
// on device's check stream. Throws model_error for another name or when a stream cannot be made.
std::unique_ptr<executor> make_executor(const std::string& name, lane origin, bool time_instructions, event_pool& events,
                                        std::shared_ptr<release_sink> sink, shared_device& device, const error_slots& slots);

// The in-order executor alone (in_order_executor.cpp; make_executor's "in-order").
std::unique_ptr<executor> make_in_order_executor(lane origin, bool time_instructions, event_pool& events);


}  // namespace mmv::gpu::cuda_impl
