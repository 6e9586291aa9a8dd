// The cuda backend: the machine's backend (model/include/mmvram/model/backend.hpp) on the device
// side of cuda_device.hpp. Device buffers from the stream-ordered allocator, one device operation
// per instruction (device_ops.hpp), issued and timed by the machine's executor (executor.hpp:
// in-order, graph or dag). Contract: one machine is used by one thread at a time; its data errors
// surface at the next synchronisation (download, compress, collect_times) as width_error or
// model_error; every CUDA failure is a model_error (cuda_check.hpp).
#include "mmvram/gpu/backend/cuda_backend.hpp"

#include "cuda_device.hpp"
#include "device_ops.hpp"
#include "executor.hpp"
#include "mmvram/model/backend.hpp"

#include <cuda_runtime.h>

#include <algorithm>
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
  // Throws model_error without a CUDA device, for an unknown executor, or when the error slots
  // or the dag executor's streams cannot be made.
  explicit cuda_backend(const machine_config& config)
      : config_(config), shared_(shared_device::get()), stream_(shared_.stream), blas_(shared_.blas),
        slots_(stream_, config.executor == "dag" ? dag_branches + 1 : 1) {
    std::lock_guard guard(shared_.lock);
    exec_ = make_executor(config.executor, lane{stream_, blas_, slots_.error()}, config.time_instructions, events_, sink_,
                          shared_, slots_);
    events_.spares().swap(shared_.spare_events);  // nothing throws from here on
    staging_.take_spare(shared_);
  }
  ~cuda_backend() override {
    exec_->close();                  // no capture stays open
    cudaStreamSynchronize(stream_);  // nothing of this machine is in flight: its spares are free
    std::lock_guard guard(shared_.lock);
    auto& spare = shared_.spare_events;
    spare.insert(spare.end(), events_.spares().begin(), events_.spares().end());
    staging_.give_back(shared_);
  }  // slots_ is freed after this (cudaFree)

  std::string name() const override { return "cuda"; }

  handle<word> shift_bits(op_code op, const buffer<word>& a, int k) override {
    auto o = out<word>(a.size());
    cuda_ops::shift_bits(ctx(a), op, dev(a), k, o->ptr, a.size());
    return o;
  }
  handle<word> extract_bit(const buffer<word>& a, const buffer<word>& k) override {
    auto o = out<word>(a.size(), 1);
    cuda_ops::extract_bit(ctx(a, k), dev(a), dev(k), o->ptr, a.size());
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
    cuda_ops::to_real(ctx(a), dev(a), o->ptr, a.size());
    return o;
  }

  void begin_instruction(std::int64_t seq, const char* op) override {
    seq_ = seq;
    names_.resize(static_cast<std::size_t>(seq) + 1);
    names_[static_cast<std::size_t>(seq)] = op;
    real_out_ = nullptr, out_mark_ = nullptr;
    exec_->begin(std::string(op) != "load");
  }
  // A real result is checked for inf/nan after the instruction, on the stream the executor names:
  // the check is the executor's (the simulate backend does it too), not the instruction's time.
  void end_instruction(std::int64_t) override {
    const bool checked = real_out_ && names_[static_cast<std::size_t>(seq_)] != "load";
    const cudaStream_t check_stream = exec_->end(out_mark_, checked);
    ++bracketed_;
    if (checked) cuda_ops::find_nonfinite(ctx_on(lane{check_stream, blas_, slots_.error()}), real_out_, real_out_size_, slots_.nonfinite());
    real_out_ = nullptr, out_mark_ = nullptr;
  }
  // The first inf/nan a real instruction produced on the device (waits for the device).
  std::optional<nonfinite_result> first_nonfinite() const override {
    exec_->host_wait();
    return slots_.first_nonfinite(names_);
  }
  void abandon_instruction(std::int64_t) override {
    real_out_ = nullptr, out_mark_ = nullptr;
    exec_->abandon();
  }
  measured_times collect_times() override {
    measured_times t = exec_->collect(bracketed_, [&] {
      check(cudaStreamSynchronize(stream_), "synchronize");
      staging_.rewind();
      raise_device_error();
    });
    if (!t.instruction_ns.empty()) bracketed_ = 0;
    return t;
  }

 private:
  template <class, class, class>
  friend class mmv::typed_forwarding;

  // The typed instructions (backend.hpp), for T = word and real: one device operation each.
  template <class T>
  handle<T> do_binary(op_code op, const buffer<T>& a, const buffer<T>& b) {
    auto o = out<T>(a.size());
    cuda_ops::binary(ctx(a, b), op, dev(a), dev(b), o->ptr, a.size());
    return o;
  }
  template <class T>
  handle<T> do_binary_const(op_code op, const buffer<T>& a, T k) {
    auto o = out<T>(a.size());
    cuda_ops::binary_const(ctx(a), op, dev(a), k, o->ptr, a.size());
    return o;
  }
  template <class T>
  handle<T> do_unary(op_code op, const buffer<T>& a) {
    auto o = out<T>(a.size());
    cuda_ops::unary(ctx(a), op, dev(a), o->ptr, a.size());
    return o;
  }
  template <class T>
  handle<word> do_compare(op_code op, const buffer<T>& a, const buffer<T>& b) {
    auto o = out<word>(a.size(), 1);
    cuda_ops::compare(ctx(a, b), op, dev(a), dev(b), o->ptr, a.size());
    return o;
  }
  template <class T>
  handle<word> do_compare_const(op_code op, const buffer<T>& a, T k) {
    auto o = out<word>(a.size(), 1);
    cuda_ops::compare_const(ctx(a), op, dev(a), k, o->ptr, a.size());
    return o;
  }
  template <class T>
  handle<T> do_select(const buffer<word>& k, const buffer<T>& a, const buffer<T>& b) {
    auto o = out<T>(a.size(), std::max(bound_of(a), bound_of(b)));
    cuda_ops::select(ctx(k, a, b), dev(k), dev(a), dev(b), o->ptr, a.size());
    return o;
  }
  template <class T>
  handle<T> do_select_const(const buffer<word>& k, const buffer<T>& a, T b) {
    auto o = out<T>(a.size(), bound_with(a, b));
    cuda_ops::select_const(ctx(k, a), dev(k), dev(a), b, o->ptr, a.size());
    return o;
  }
  template <class T>
  handle<T> do_shift(const buffer<T>& a, std::int64_t offset, T fill) {
    auto o = out<T>(a.size(), bound_with(a, fill));
    cuda_ops::shift(ctx(a), dev(a), a.size(), offset, fill, o->ptr);
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
    cuda_ops::gather(ctx(a, idx), dev(a), a.size(), dev(idx), o->ptr, idx.size());
    return o;
  }
  template <class T>
  handle<T> do_gather_strided(const buffer<T>& a, std::int64_t start, std::int64_t stride, std::int64_t count) {
    auto o = out<T>(count, bound_of(a));
    cuda_ops::gather_strided(ctx(a), dev(a), start, stride, o->ptr, count);
    return o;
  }
  template <class T>
  handle<T> do_scatter(const buffer<T>& d, const buffer<word>& idx, const buffer<T>& v) {
    auto o = out<T>(d.size(), std::max(bound_of(d), bound_of(v)));
    cuda_ops::scatter(ctx(d, idx, v), dev(d), d.size(), dev(idx), dev(v), idx.size(), o->ptr);
    return o;
  }
  template <class T>
  handle<T> do_compress(const buffer<T>& a, const buffer<word>& mask, const buffer<word>& pos) {
    exec_->host_wait();  // the count is read back: the host waits for the device
    exec_->eager_begin();
    const std::int64_t count = cuda_ops::count_set(ctx_on(lane{stream_, blas_, slots_.error()}), dev(mask), mask.size());
    exec_->eager_end();
    raise_device_error();
    auto o = out<T>(count, bound_of(a));
    cuda_ops::compress(ctx(a, mask, pos), dev(a), dev(mask), dev(pos), a.size(), o->ptr, count);
    return o;
  }
  template <class T>
  handle<T> do_resize(const buffer<T>& a, std::int64_t m, T fill) {
    auto o = out<T>(m, bound_with(a, fill));
    cuda_ops::resize(ctx(a), dev(a), a.size(), m, fill, o->ptr);
    return o;
  }
  template <class T>
  handle<T> do_revspec(const buffer<T>& a, const buffer<word>& f) {
    auto o = out<T>(a.size());
    cuda_ops::revspec(ctx(a, f), dev(a), dev(f), o->ptr, a.size());
    return o;
  }
  template <class T>
  handle<T> do_block_prefix(const buffer<T>& a, const buffer<word>* f, std::int64_t k) {
    auto o = out<T>(a.size());
    const lane l = exec_->issue({&mark_of(a), f ? &mark_of(*f) : nullptr});
    cuda_ops::block_prefix(ctx_on(l), dev(a), f ? dev(*f) : nullptr, k, o->ptr, a.size());
    return o;
  }
  // Words take the exact path their operands' bounds allow (device_ops.hpp); every output is a
  // sum of s products, so s |a| |w| bounds it.
  handle<word> do_mmu(const buffer<word>& a, const buffer<word>& w) {
    auto o = out<word>(a.size(), bound_of(a) * bound_of(w) * config_.s);
    cuda_ops::mmu(ctx(a, w), dev(a), bound_of(a), dev(w), bound_of(w), o->ptr, a.size() / config_.s);
    return o;
  }
  handle<real> do_mmu(const buffer<real>& a, const buffer<real>& w) {
    auto o = out<real>(a.size());
    cuda_ops::mmu(ctx(a, w), dev(a), dev(w), o->ptr, a.size() / config_.s);
    return o;
  }

  // The context of the current instruction on lane l.
  cuda_ops::context ctx_on(const lane& l) const {
    return {l.stream, l.blas, l.err, seq_, config_.word_bits, config_.format == number_format::float32, config_.s};
  }
  // The context of the current instruction, which reads `inputs` (the executor picks its lane).
  template <class... B>
  cuda_ops::context ctx(const B&... inputs) {
    return ctx_on(exec_->issue({&mark_of(inputs)...}));
  }
  double word_bound() const { return std::ldexp(1.0, config_.word_bits - 1); }
  // The bound of a result whose values are a's or `value` (resize, shift, select's constant).
  template <class T>
  static double bound_with(const buffer<T>& a, T value) {
    return std::max(bound_of(a), std::fabs(static_cast<double>(value)));
  }
  // The result of the current instruction (a real one is remembered for the non-finite check),
  // allocated on the machine's stream; `captured`: inside the executor's capture, if it has one.
  template <class T>
  std::shared_ptr<device_buffer<T>> out(std::int64_t n, double bound = -1, bool captured = true) {
    if (bound < 0) bound = std::is_same_v<T, word> ? word_bound() : 0.0;
    if (captured) exec_->prepare();
    auto o = std::make_shared<device_buffer<T>>(n, stream_, std::min(bound, word_bound()), sink_);
    if constexpr (std::is_same_v<T, real>) real_out_ = o->ptr, real_out_size_ = n;
    out_mark_ = &o->mark;
    return o;
  }
  // Host -> device through the machine's staging arena (staging_arena: asynchronous up to
  // 64 MiB); the value bound of the upload is exact.
  template <class T>
  handle<T> do_upload(std::span<const T> v) {
    double bound = 0;
    for (const T x : v) bound = std::max(bound, std::fabs(static_cast<double>(x)));
    exec_->before_upload(staging_.staged(v.size() * sizeof(T)));  // a synchronous copy: outside any capture
    auto o = out<T>(static_cast<std::int64_t>(v.size()), bound, false);
    if (!v.empty()) staging_.upload(o->ptr, v.data(), v.size() * sizeof(T), stream_);
    return o;
  }
  // The executor ends its capture (graph, dag) or marks the run's end (in-order, span-only)
  // before anything else happens on the host.
  template <class T>
  std::vector<T> do_download(const buffer<T>& v) {
    exec_->host_wait();
    exec_->result_read();
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
  producer_mark* out_mark_ = nullptr;  // the current instruction's result's mark, until its end
  std::int64_t seq_ = 0;
  std::int64_t bracketed_ = 0;
  std::vector<std::string> names_;
  event_pool events_;
  staging_arena staging_;
  std::shared_ptr<release_sink> sink_ = std::make_shared<release_sink>();
  std::unique_ptr<executor> exec_;  // after what it refers to (events_, sink_)
};

}  // namespace
}  // namespace cuda_impl

void register_cuda_backend() {
  register_backend("cuda", [](const machine_config& c) { return std::make_unique<cuda_impl::cuda_backend>(c); });
}

}  // namespace mmv::gpu
