// The graph and dag executors (executor.hpp). The instructions between two points where the host
// waits for the device are captured (cudaStreamBeginCapture, relaxed mode) into one CUDA graph,
// which is instantiated, uploaded, and launched once between a start and a stop event on the
// machine's stream; the run's device time is the sum of those intervals (and of compress's counting
// reductions, which run between graphs). Allocations inside a capture become the graph's
// memory nodes; memory released during a capture is freed after the graph's launch
// (release_sink), so no capture frees memory it did not allocate.
//
// dag: each instruction's result is allocated on the machine's stream (the origin), then the
// instruction forks onto one of the branch streams, chosen by this rule: the branch whose most
// recent instruction in this capture wrote one of its inputs (the first such input in operand
// order), so that a chain stays on one stream; otherwise the branch used least recently. It
// waits there for the events of its inputs' writers on other branches and records its own event
// after it. Every branch (and the stream of the non-finite checks, which run in program order)
// is joined back to the origin before the capture ends, so the graph's edges are the ledger's
// dependencies and independent instructions overlap.
#include <algorithm>
#include <cstdint>
#include <string>

#include "executor.hpp"

namespace mmv::gpu::cuda_impl {

namespace {

class graph_executor final : public executor {
 public:
  graph_executor(lane origin, event_pool& events, std::shared_ptr<release_sink> sink, std::vector<lane> branches,
                 cudaStream_t check)
      : origin_(origin), events_(events), sink_(std::move(sink)), branches_(std::move(branches)), check_(check),
        tail_(branches_.size(), nullptr), used_(branches_.size(), false), last_use_(branches_.size(), 0) {}

  void begin(bool compute) override { compute_ = compute, current_ = -1; }
  void prepare() override {
    if (sink_->capturing) return;
    check(cudaStreamBeginCapture(origin_.stream, cudaStreamCaptureModeRelaxed), "graph capture");
    sink_->capturing = true;
    ++capture_;
  }
  lane issue(std::initializer_list<const producer_mark*> inputs) override {
    prepare();
    if (branches_.empty()) return origin_;
    int pick = -1;
    for (const producer_mark* m : inputs)
      if (m && m->capture == capture_ && m->stream >= 0 && tail_[static_cast<std::size_t>(m->stream)] == m->done) {
        pick = m->stream;
        break;
      }
    if (pick < 0) pick = static_cast<int>(std::min_element(last_use_.begin(), last_use_.end()) - last_use_.begin());
    const auto b = static_cast<std::size_t>(pick);
    last_use_[b] = ++clock_;
    used_[b] = true;
    current_ = pick;
    const cudaStream_t s = branches_[b].stream;
    const cudaEvent_t fork = capture_event();  // after the result's allocation on the origin
    check(cudaEventRecord(fork, origin_.stream), "event");
    check(cudaStreamWaitEvent(s, fork, 0), "event wait");
    for (const producer_mark* m : inputs)
      if (m && m->capture == capture_ && m->stream != pick) check(cudaStreamWaitEvent(s, m->done, 0), "event wait");
    return branches_[b];
  }
  cudaStream_t end(producer_mark* out, bool checked) override {
    if (!compute_ || branches_.empty() || current_ < 0) return origin_.stream;
    const auto b = static_cast<std::size_t>(current_);
    const cudaEvent_t done = capture_event();
    check(cudaEventRecord(done, branches_[b].stream), "event");
    tail_[b] = done;
    if (out) *out = producer_mark{done, capture_, current_};
    current_ = -1;
    if (!checked) return origin_.stream;
    check(cudaStreamWaitEvent(check_, done, 0), "event wait");
    check_used_ = true;
    return check_;
  }
  void abandon() override { current_ = -1; }
  void host_wait() override {
    if (!sink_->capturing) return;
    for (std::size_t b = 0; b < branches_.size(); ++b)
      if (used_[b]) join(branches_[b].stream);
    if (check_used_) join(check_);
    cudaGraph_t graph = nullptr;
    const cudaError_t ended = cudaStreamEndCapture(origin_.stream, &graph);
    sink_->capturing = false;
    // Freed when this returns: after the launch below, in the origin stream's order.
    std::vector<runtime::async_buffer> released = std::move(sink_->deferred);
    sink_->deferred.clear();
    end_capture_state();
    // A graph that is never launched: the frees of memory it would have allocated fail, and
    // that error is cleared so that only `failed` is reported.
    const auto raise_unlaunched = [&](cudaError_t failed, const char* what) {
      if (graph) cudaGraphDestroy(graph);
      released.clear();
      (void)cudaGetLastError();
      check(failed, what);
    };
    if (ended != cudaSuccess) raise_unlaunched(ended, "graph capture");
    std::size_t nodes = 0;
    const cudaError_t counted = cudaGraphGetNodes(graph, nullptr, &nodes);
    if (counted != cudaSuccess) raise_unlaunched(counted, "graph nodes");
    if (nodes == 0) {  // nothing was enqueued (zero-length operands), so nothing was allocated
      cudaGraphDestroy(graph);
      return;
    }
    cudaGraphExec_t exec = nullptr;
    const cudaError_t made = cudaGraphInstantiate(&exec, graph, 0);
    if (made != cudaSuccess) raise_unlaunched(made, "graph instantiate");
    cudaGraphDestroy(graph);
    graph = nullptr;
    execs_.push_back(exec);
    // The upload of the executable graph to the device is enqueued before the start event, so
    // the timed interval holds the graph's execution only.
    const cudaError_t uploaded = cudaGraphUpload(exec, origin_.stream);
    if (uploaded != cudaSuccess) raise_unlaunched(uploaded, "graph upload");
    eager_begin();
    const cudaError_t launched = cudaGraphLaunch(exec, origin_.stream);
    if (launched != cudaSuccess) raise_unlaunched(launched, "graph launch");
    eager_end();
  }
  // A staged upload is captured as a copy node from the pinned arena (which is rewound only
  // after the stream has drained), so a constant does not split the graph. The copy is on the
  // origin; under dag every later instruction forks from the origin after it, so its readers
  // on any lane are ordered after it without a producer mark.
  void before_upload(bool staged) override {
    if (!staged) host_wait();
  }
  void eager_begin() override {
    segments_.push_back({events_.get(), nullptr});
    check(cudaEventRecord(segments_.back().start, origin_.stream), "event");
  }
  void eager_end() override {
    segments_.back().stop = events_.get();
    check(cudaEventRecord(segments_.back().stop, origin_.stream), "event");
  }
  measured_times collect(std::int64_t bracketed, const std::function<void()>& sync_and_raise) override {
    measured_times t;
    if (bracketed == 0 && segments_.empty() && !sink_->capturing) return t;
    host_wait();
    sync_and_raise();
    double ms_total = 0;
    for (const auto& seg : segments_) {
      float ms = 0;
      check(cudaEventElapsedTime(&ms, seg.start, seg.stop), "event time");
      ms_total += ms;
    }
    release_segments();
    t.instruction_ns.assign(static_cast<std::size_t>(bracketed), -1.0);
    t.span_ns = ms_total * 1e6;
    return t;
  }
  void close() noexcept override {
    if (sink_->capturing) {
      cudaGraph_t graph = nullptr;
      cudaStreamEndCapture(origin_.stream, &graph);
      if (graph) cudaGraphDestroy(graph);
      sink_->capturing = false;
      sink_->deferred.clear();  // memory of a graph never launched: its frees may fail, unchecked
      end_capture_state();
      (void)cudaGetLastError();  // so that no later check reports them
    }
    cudaStreamSynchronize(origin_.stream);
    release_segments();
  }

 private:
  struct segment {
    cudaEvent_t start, stop;
  };
  // An event for a record or wait inside the open capture (free again when it ends).
  cudaEvent_t capture_event() {
    capture_events_.push_back(events_.get());
    return capture_events_.back();
  }
  // The origin waits for everything enqueued on `s` in this capture.
  void join(cudaStream_t s) {
    const cudaEvent_t e = capture_event();
    check(cudaEventRecord(e, s), "event");
    check(cudaStreamWaitEvent(origin_.stream, e, 0), "event wait");
  }
  void end_capture_state() {
    for (const cudaEvent_t e : capture_events_) events_.put(e);
    capture_events_.clear();
    std::fill(tail_.begin(), tail_.end(), nullptr);
    std::fill(used_.begin(), used_.end(), false);
    check_used_ = false;
  }
  // After the device has drained (or the machine is closing): the launched graphs and their events.
  void release_segments() {
    for (const auto& seg : segments_) {
      events_.put(seg.start);
      if (seg.stop) events_.put(seg.stop);
    }
    segments_.clear();
    for (const cudaGraphExec_t e : execs_) cudaGraphExecDestroy(e);
    execs_.clear();
  }

  lane origin_;
  event_pool& events_;
  std::shared_ptr<release_sink> sink_;
  std::vector<lane> branches_;  // dag only
  cudaStream_t check_;
  std::vector<cudaEvent_t> tail_;  // per branch: the event after its latest instruction in this capture
  std::vector<bool> used_;         // per branch: forked in this capture
  std::vector<std::uint64_t> last_use_;
  std::uint64_t clock_ = 0;
  std::uint64_t capture_ = 0;  // the number of the open (or last) capture
  bool compute_ = false, check_used_ = false;
  int current_ = -1;  // the current instruction's branch
  std::vector<cudaEvent_t> capture_events_;
  std::vector<segment> segments_;  // launched graphs and eager work, since the last collection
  std::vector<cudaGraphExec_t> execs_;
};

}  // namespace

std::unique_ptr<executor> make_executor(const std::string& name, lane origin, bool time_instructions, event_pool& events,
                                        std::shared_ptr<release_sink> sink, shared_device& device, const error_slots& slots) {
  if (name == "in-order") return make_in_order_executor(origin, time_instructions, events);
  if (name == "graph") return std::make_unique<graph_executor>(origin, events, std::move(sink), std::vector<lane>{}, nullptr);
  if (name != "dag") throw model_error("cuda backend: unknown executor '" + name + "' (in-order, graph or dag)");
  device.make_branches(dag_branches);
  std::vector<lane> branches;
  for (std::size_t b = 0; b < dag_branches; ++b)
    branches.push_back({device.branch_streams[b], device.branch_blas[b], slots.error(static_cast<int>(b) + 1)});
  return std::make_unique<graph_executor>(origin, events, std::move(sink), std::move(branches), device.check_stream);
}

}  // namespace mmv::gpu::cuda_impl
