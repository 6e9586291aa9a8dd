// The in-order executor (executor.hpp): every instruction enqueued on the machine's one stream
// as it is issued. Timed mode: an event pair around every instruction. Span-only mode
// (time_instructions false): one start event at the first instruction that is not a load and
// one end event when a result is read (or at collection). Either way the span runs from the
// first non-load.
#include <cstdint>
#include <string>

#include "executor.hpp"

namespace mmv::gpu::cuda_impl {

cudaEvent_t event_pool::get() {
  if (!free_.empty()) {
    cudaEvent_t e = free_.back();
    free_.pop_back();
    return e;
  }
  cudaEvent_t e;
  check(cudaEventCreate(&e), "event");
  return e;
}

namespace {

class in_order_executor final : public executor {
 public:
  in_order_executor(lane origin, bool timed, event_pool& events) : origin_(origin), timed_(timed), events_(events) {}

  void begin(bool compute) override {
    if (compute && result_read_) {  // a read in the middle of the run was not its end
      events_.put(result_read_);
      result_read_ = nullptr;
    }
    if (!timed_) {
      if (compute && pairs_.empty()) {
        pairs_.push_back({events_.get(), nullptr});
        first_compute_ = 0;
        check(cudaEventRecord(pairs_.back().start, origin_.stream), "event");
      }
      return;
    }
    if (compute && first_compute_ == SIZE_MAX) first_compute_ = pairs_.size();
    pairs_.push_back({events_.get(), events_.get()});
    check(cudaEventRecord(pairs_.back().start, origin_.stream), "event");
  }
  void prepare() override {}
  lane issue(std::initializer_list<const producer_mark*>) override { return origin_; }
  // The stop event comes before the result's check: the check is the executor's, not the
  // instruction's time.
  cudaStream_t end(producer_mark*, bool) override {
    if (timed_) check(cudaEventRecord(pairs_.back().stop, origin_.stream), "event");
    return origin_.stream;
  }
  void abandon() override {
    if (!timed_ || pairs_.empty()) return;
    events_.put(pairs_.back().start), events_.put(pairs_.back().stop);
    pairs_.pop_back();
    if (first_compute_ != SIZE_MAX && first_compute_ >= pairs_.size()) first_compute_ = SIZE_MAX;
  }
  void host_wait() override {}
  // Span-only mode: the run's end is marked before anything else happens on the host (the
  // result's host vector is zero-filled first, 1-13 ms at 2^22-2^24 words, and the device would
  // stamp an event recorded after that as late as the host reached it).
  void result_read() override {
    if (timed_ || pairs_.empty()) return;
    if (!result_read_) result_read_ = events_.get();
    check(cudaEventRecord(result_read_, origin_.stream), "event");
  }
  measured_times collect(std::int64_t bracketed, const std::function<void()>& sync_and_raise) override {
    measured_times t;
    if (pairs_.empty() && bracketed == 0) return t;
    if (pairs_.empty()) {  // span-only mode with nothing but loads
      t.instruction_ns.assign(static_cast<std::size_t>(bracketed), -1.0);
      return t;
    }
    cudaEvent_t last = pairs_.back().stop;
    if (!timed_) {  // up to the last read of a result, else up to now
      last = result_read_ ? result_read_ : events_.get();
      if (!result_read_) check(cudaEventRecord(last, origin_.stream), "event");
      result_read_ = nullptr;
    }
    sync_and_raise();
    for (const auto& e : pairs_) {
      float ms = 0;
      if (timed_) check(cudaEventElapsedTime(&ms, e.start, e.stop), "event time");
      t.instruction_ns.push_back(timed_ ? ms * 1e6 : -1.0);
    }
    if (!timed_) t.instruction_ns.assign(static_cast<std::size_t>(bracketed), -1.0);
    float span = 0;
    if (first_compute_ != SIZE_MAX) check(cudaEventElapsedTime(&span, pairs_[first_compute_].start, last), "event time");
    t.span_ns = span * 1e6;
    first_compute_ = SIZE_MAX;
    if (!timed_) events_.put(last);
    release_pairs();
    return t;
  }
  void close() noexcept override {
    release_pairs();
    if (result_read_) events_.put(result_read_);
    result_read_ = nullptr;
  }

 private:
  struct event_pair {
    cudaEvent_t start, stop;
  };
  void release_pairs() {
    for (const auto& e : pairs_) {
      events_.put(e.start);
      if (e.stop) events_.put(e.stop);
    }
    pairs_.clear();
  }

  lane origin_;
  bool timed_;
  event_pool& events_;
  std::vector<event_pair> pairs_;
  std::size_t first_compute_ = SIZE_MAX;  // the first bracketed instruction that is not a load
  cudaEvent_t result_read_ = nullptr;     // span-only mode: recorded before each download
};

}  // namespace

std::unique_ptr<executor> make_in_order_executor(lane origin, bool time_instructions, event_pool& events) {
  return std::make_unique<in_order_executor>(origin, time_instructions, events);
}

}  // namespace mmv::gpu::cuda_impl
