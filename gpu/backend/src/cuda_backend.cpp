// The cuda backend: the machine's backend (model/include/mmvram/model/backend.hpp) on the
// device side of cuda_device.hpp. Device buffers from the stream-ordered allocator, one device
// operation per instruction (device_ops.hpp), CUDA events around each for its time, and the
// device error slot read back at every synchronisation (download, compress, collect_times).
// Contract: one machine is used by one thread at a time; an instruction's data errors
// surface at the next synchronisation as width_error or model_error; every CUDA failure is a
// model_error (cuda_check.hpp).
#include "mmvram/gpu/backend/cuda_backend.hpp"

#include "cuda_device.hpp"
#include "device_ops.hpp"
#include "mmvram/model/backend.hpp"

#include <cuda_runtime.h>

#include <cmath>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mmv::gpu {
namespace cuda_impl {
namespace {

class cuda_backend final : public backend_of<cuda_backend> {
 public:
  // Throws model_error without a CUDA device or when the error slots cannot be made.
  explicit cuda_backend(const machine_config& config)
      : config_(config), shared_(shared_device::get()), stream_(shared_.stream), blas_(shared_.blas), slots_(stream_) {
    std::lock_guard guard(shared_.lock);  // nothing throws from here on
    free_events_.swap(shared_.spare_events);
    staging_.take_spare(shared_);
  }
  ~cuda_backend() override {
    cudaStreamSynchronize(stream_);  // nothing of this machine is in flight: its spares are free
    for (auto& e : events_) {
      free_events_.push_back(e.start);
      if (e.stop) free_events_.push_back(e.stop);
    }
    if (result_read_) free_events_.push_back(result_read_);
    std::lock_guard guard(shared_.lock);
    shared_.spare_events.insert(shared_.spare_events.end(), free_events_.begin(), free_events_.end());
    staging_.give_back(shared_);
  }  // slots_ is freed after this (cudaFree)

  std::string name() const override { return "cuda"; }

  handle<word> shift_bits(op_code op, const buffer<word>& a, int k) override {
    auto o = out<word>(a.size());
    cuda_ops::shift_bits(ctx(), op, dev(a), k, o->ptr, a.size());
    return o;
  }
  handle<word> extract_bit(const buffer<word>& a, const buffer<word>& k) override {
    auto o = out<word>(a.size(), 1);
    cuda_ops::extract_bit(ctx(), dev(a), dev(k), o->ptr, a.size());
    return o;
  }
  handle<word> iota(std::int64_t m, word start, word step, std::int64_t block) override {
    auto o = out<word>(m);
    cuda_ops::iota(ctx(), start, step, block, o->ptr, m);
    return o;
  }
  handle<word> lane_index(std::int64_t m, std::int64_t block) override {
    auto o = out<word>(m, static_cast<double>(block));
    cuda_ops::lane_index(ctx(), block, o->ptr, m);
    return o;
  }
  handle<real> to_real(const buffer<word>& a) override {
    auto o = out<real>(a.size());
    cuda_ops::to_real(ctx(), dev(a), o->ptr, a.size());
    return o;
  }

  // Timed mode: an event pair around every instruction. Span-only mode: one start event at the
  // first instruction that is not a load. Either way the span runs from the first non-load.
  void begin_instruction(std::int64_t seq, const char* op) override {
    seq_ = seq;
    names_.resize(static_cast<std::size_t>(seq) + 1);
    names_[static_cast<std::size_t>(seq)] = op;
    const bool compute = std::string(op) != "load";
    if (compute && result_read_) {  // a read in the middle of the run was not its end
      free_events_.push_back(result_read_);
      result_read_ = nullptr;
    }
    if (!config_.time_instructions) {
      if (compute && events_.empty()) {
        events_.push_back({event(), nullptr});
        first_compute_ = 0;
        check(cudaEventRecord(events_.back().start, stream_), "event");
      }
      return;
    }
    if (compute && first_compute_ == SIZE_MAX) first_compute_ = events_.size();
    events_.push_back({event(), event()});
    check(cudaEventRecord(events_.back().start, stream_), "event");
  }
  // A real result is checked for inf/nan after its stop event: the check is the executor's
  // (the simulate backend does it too), not the instruction's time.
  void end_instruction(std::int64_t) override {
    if (config_.time_instructions) check(cudaEventRecord(events_.back().stop, stream_), "event");
    ++bracketed_;
    if (real_out_ && names_[static_cast<std::size_t>(seq_)] != "load")
      cuda_ops::find_nonfinite(ctx(), real_out_, real_out_size_, slots_.nonfinite());
    real_out_ = nullptr;
  }
  // The first inf/nan a real instruction produced on the device (waits for the device).
  std::optional<nonfinite_result> first_nonfinite() const override {
    return slots_.first_nonfinite(names_);
  }
  void abandon_instruction(std::int64_t) override {
    real_out_ = nullptr;
    if (config_.time_instructions && !events_.empty()) {
      free_events_.push_back(events_.back().start), free_events_.push_back(events_.back().stop);
      events_.pop_back();
      if (first_compute_ != SIZE_MAX && first_compute_ >= events_.size()) first_compute_ = SIZE_MAX;
    }
  }
  measured_times collect_times() override {
    measured_times t;
    if (events_.empty() && bracketed_ == 0) return t;
    if (events_.empty()) {  // span-only mode with nothing but loads
      t.instruction_ns.assign(static_cast<std::size_t>(bracketed_), -1.0);
      bracketed_ = 0;
      return t;
    }
    cudaEvent_t last = events_.back().stop;
    if (!config_.time_instructions) {  // up to the last read of a result, else up to now
      last = result_read_ ? result_read_ : event();
      if (!result_read_) check(cudaEventRecord(last, stream_), "event");
      result_read_ = nullptr;
    }
    check(cudaStreamSynchronize(stream_), "synchronize");
    raise_device_error();
    for (const auto& e : events_) {
      float ms = 0;
      if (config_.time_instructions) check(cudaEventElapsedTime(&ms, e.start, e.stop), "event time");
      t.instruction_ns.push_back(config_.time_instructions ? ms * 1e6 : -1.0);
    }
    if (!config_.time_instructions) t.instruction_ns.assign(static_cast<std::size_t>(bracketed_), -1.0);
    float span = 0;
    if (first_compute_ != SIZE_MAX) check(cudaEventElapsedTime(&span, events_[first_compute_].start, last), "event time");
    t.span_ns = span * 1e6;
    first_compute_ = SIZE_MAX;
    staging_.rewind();
    for (auto& e : events_) {
      free_events_.push_back(e.start);
      if (e.stop) free_events_.push_back(e.stop);
    }
    if (!config_.time_instructions) free_events_.push_back(last);
    events_.clear();
    bracketed_ = 0;
    return t;
  }

 private:
  template <class, class, class>
  friend class mmv::typed_forwarding;

  // The typed instructions (backend.hpp), for T = word and real: one device operation each.
  template <class T>
  handle<T> do_binary(op_code op, const buffer<T>& a, const buffer<T>& b) {
    auto o = out<T>(a.size());
    cuda_ops::binary(ctx(), op, dev(a), dev(b), o->ptr, a.size());
    return o;
  }
  template <class T>
  handle<T> do_binary_const(op_code op, const buffer<T>& a, T k) {
    auto o = out<T>(a.size());
    cuda_ops::binary_const(ctx(), op, dev(a), k, o->ptr, a.size());
    return o;
  }
  template <class T>
  handle<T> do_unary(op_code op, const buffer<T>& a) {
    auto o = out<T>(a.size());
    cuda_ops::unary(ctx(), op, dev(a), o->ptr, a.size());
    return o;
  }
  template <class T>
  handle<word> do_compare(op_code op, const buffer<T>& a, const buffer<T>& b) {
    auto o = out<word>(a.size(), 1);
    cuda_ops::compare(ctx(), op, dev(a), dev(b), o->ptr, a.size());
    return o;
  }
  template <class T>
  handle<word> do_compare_const(op_code op, const buffer<T>& a, T k) {
    auto o = out<word>(a.size(), 1);
    cuda_ops::compare_const(ctx(), op, dev(a), k, o->ptr, a.size());
    return o;
  }
  template <class T>
  handle<T> do_select(const buffer<word>& k, const buffer<T>& a, const buffer<T>& b) {
    auto o = out<T>(a.size());
    cuda_ops::select(ctx(), dev(k), dev(a), dev(b), o->ptr, a.size());
    return o;
  }
  template <class T>
  handle<T> do_select_const(const buffer<word>& k, const buffer<T>& a, T b) {
    auto o = out<T>(a.size());
    cuda_ops::select_const(ctx(), dev(k), dev(a), b, o->ptr, a.size());
    return o;
  }
  template <class T>
  handle<T> do_shift(const buffer<T>& a, std::int64_t offset, T fill) {
    auto o = out<T>(a.size());
    cuda_ops::shift(ctx(), dev(a), a.size(), offset, fill, o->ptr);
    return o;
  }
  template <class T>
  handle<T> do_broadcast(T value, std::int64_t m) {
    auto o = out<T>(m, std::fabs(static_cast<double>(value)));
    cuda_ops::fill(ctx(), value, o->ptr, m);
    return o;
  }
  template <class T>
  handle<T> do_gather(const buffer<T>& a, const buffer<word>& idx) {
    auto o = out<T>(idx.size(), bound_of(a));
    cuda_ops::gather(ctx(), dev(a), a.size(), dev(idx), o->ptr, idx.size());
    return o;
  }
  template <class T>
  handle<T> do_gather_strided(const buffer<T>& a, std::int64_t start, std::int64_t stride, std::int64_t count) {
    auto o = out<T>(count, bound_of(a));
    cuda_ops::gather_strided(ctx(), dev(a), start, stride, o->ptr, count);
    return o;
  }
  template <class T>
  handle<T> do_scatter(const buffer<T>& d, const buffer<word>& idx, const buffer<T>& v) {
    auto o = out<T>(d.size());
    cuda_ops::scatter(ctx(), dev(d), d.size(), dev(idx), dev(v), idx.size(), o->ptr);
    return o;
  }
  template <class T>
  handle<T> do_compress(const buffer<T>& a, const buffer<word>& mask, const buffer<word>& pos) {
    const std::int64_t count = cuda_ops::count_set(ctx(), dev(mask), mask.size());
    raise_device_error();
    auto o = out<T>(count, bound_of(a));
    cuda_ops::compress(ctx(), dev(a), dev(mask), dev(pos), a.size(), o->ptr, count);
    return o;
  }
  template <class T>
  handle<T> do_resize(const buffer<T>& a, std::int64_t m, T fill) {
    auto o = out<T>(m);
    cuda_ops::resize(ctx(), dev(a), a.size(), m, fill, o->ptr);
    return o;
  }
  template <class T>
  handle<T> do_revspec(const buffer<T>& a, const buffer<word>& f) {
    auto o = out<T>(a.size());
    cuda_ops::revspec(ctx(), dev(a), dev(f), o->ptr, a.size());
    return o;
  }
  template <class T>
  handle<T> do_block_prefix(const buffer<T>& a, const buffer<word>* f, std::int64_t k) {
    auto o = out<T>(a.size());
    cuda_ops::block_prefix(ctx(), dev(a), f ? dev(*f) : nullptr, k, o->ptr, a.size());
    return o;
  }
  // Words take the exact path their operands' bounds allow (device_ops.hpp).
  handle<word> do_mmu(const buffer<word>& a, const buffer<word>& w) {
    auto o = out<word>(a.size());
    cuda_ops::mmu(ctx(), dev(a), bound_of(a), dev(w), bound_of(w), o->ptr, a.size() / config_.s);
    return o;
  }
  handle<real> do_mmu(const buffer<real>& a, const buffer<real>& w) {
    auto o = out<real>(a.size());
    cuda_ops::mmu(ctx(), dev(a), dev(w), o->ptr, a.size() / config_.s);
    return o;
  }

  struct event_pair {
    cudaEvent_t start, stop;
  };

  cuda_ops::context ctx() const {
    return cuda_ops::context{stream_, blas_, slots_.error(), seq_, config_.word_bits, config_.format == number_format::float32, config_.s};
  }
  cudaEvent_t event() {
    if (!free_events_.empty()) {
      cudaEvent_t e = free_events_.back();
      free_events_.pop_back();
      return e;
    }
    cudaEvent_t e;
    check(cudaEventCreate(&e), "event");
    return e;
  }
  double word_bound() const { return std::ldexp(1.0, config_.word_bits - 1); }
  // The result of the current instruction (a real one is remembered for the non-finite check).
  template <class T>
  std::shared_ptr<device_buffer<T>> out(std::int64_t n, double bound = -1) {
    if (bound < 0) bound = std::is_same_v<T, word> ? word_bound() : 0.0;
    auto o = std::make_shared<device_buffer<T>>(n, stream_, std::min(bound, word_bound()));
    if constexpr (std::is_same_v<T, real>) real_out_ = o->ptr, real_out_size_ = n;
    return o;
  }
  // Host -> device through the machine's staging arena (staging_arena: asynchronous up to
  // 64 MiB); the value bound of the upload is exact.
  template <class T>
  handle<T> do_upload(std::span<const T> v) {
    double bound = 0;
    for (const T x : v) bound = std::max(bound, std::fabs(static_cast<double>(x)));
    auto o = out<T>(static_cast<std::int64_t>(v.size()), bound);
    if (!v.empty()) staging_.upload(o->ptr, v.data(), v.size() * sizeof(T), stream_);
    return o;
  }
  // Span-only mode: the run's end is marked before anything else happens on the host (the
  // result's host vector is zero-filled first, 1-13 ms at 2^22-2^24 words, and the device would
  // stamp an event recorded after that as late as the host reached it).
  template <class T>
  std::vector<T> do_download(const buffer<T>& v) {
    if (!config_.time_instructions && !events_.empty()) {  // the run's end: its result is read
      if (!result_read_) result_read_ = event();
      check(cudaEventRecord(result_read_, stream_), "event");
    }
    std::vector<T> host(static_cast<std::size_t>(v.size()));
    if (!host.empty())
      check(cudaMemcpyAsync(host.data(), dev(v), host.size() * sizeof(T), cudaMemcpyDeviceToHost, stream_), "download");
    check(cudaStreamSynchronize(stream_), "download");
    staging_.rewind();
    raise_device_error();
    return host;
  }
  // Throws the first data error the device recorded (width_error or model_error).
  void raise_device_error() { slots_.raise_error(names_, config_.word_bits); }

  machine_config config_;
  shared_device& shared_;
  cudaStream_t stream_ = nullptr;
  cublasHandle_t blas_ = nullptr;
  error_slots slots_;  // after stream_: made on it
  real* real_out_ = nullptr;  // the current instruction's real result, until its end
  std::int64_t real_out_size_ = 0;
  std::int64_t seq_ = 0;
  std::int64_t bracketed_ = 0;
  std::vector<std::string> names_;
  std::vector<event_pair> events_;
  std::vector<cudaEvent_t> free_events_;
  std::size_t first_compute_ = SIZE_MAX;  // the first bracketed instruction that is not a load
  staging_arena staging_;
  cudaEvent_t result_read_ = nullptr;  // span-only mode: recorded before each download
};

}  // namespace
}  // namespace cuda_impl

void register_cuda_backend() {
  register_backend("cuda", [](const machine_config& c) { return std::make_unique<cuda_impl::cuda_backend>(c); });
}

}  // namespace mmv::gpu
