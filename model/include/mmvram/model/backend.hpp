// The machine's seam (like ParlayLib's scheduler plug-ins): `machine` is the front (argument
// checks, ledger, regions, DAG, trace) and a backend executes each instruction on its own
// storage. `simulate` runs on the CPU (Eigen, exact, width-checked); `cuda` runs every
// instruction as its own GPU operation on device vectors (gpu/backend/). Both execute the ops
// of instruction_table.hpp; the front has already checked lengths, types and parameters.
#pragma once
#include "mmvram/model/instruction_table.hpp"
#include "mmvram/model/types.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mmv {

// A vector in a backend's memory; the backend derives its own storage from it.
template <class T>
class buffer {
 public:
  virtual ~buffer() = default;
  std::int64_t size() const { return size_; }

 protected:
  explicit buffer(std::int64_t size) : size_(size) {}

 private:
  std::int64_t size_;
};

template <class T>
using handle = std::shared_ptr<const buffer<T>>;

// The instructions of one word type T (word or real). Data-dependent checks (index ranges,
// flags that are not 0/1, integer results outside B bits) are the backend's; it raises them as
// model_error / width_error, at the latest at the next download.
template <class T>
class typed_executor {
 public:
  virtual ~typed_executor() = default;
  // Host -> backend copy of values the front has already checked and rounded.
  virtual handle<T> upload(std::span<const T> values) = 0;
  // Backend -> host copy; also the point where deferred errors surface.
  virtual std::vector<T> download(const buffer<T>& v) = 0;
  // add sub min max (and or xor on words; mul div on reals), element-wise.
  virtual handle<T> binary(op_code op, const buffer<T>& a, const buffer<T>& b) = 0;
  // add-const sub-const (mul-const on reals).
  virtual handle<T> binary_const(op_code op, const buffer<T>& a, T c) = 0;
  // neg (not on words; exp log on reals).
  virtual handle<T> unary(op_code op, const buffer<T>& a) = 0;
  // eq..ge with a vector (op eq..ge) or a constant (op eq-const..ge-const): 0/1 words.
  virtual handle<word> compare(op_code op, const buffer<T>& a, const buffer<T>& b) = 0;
  virtual handle<word> compare_const(op_code op, const buffer<T>& a, T c) = 0;
  virtual handle<T> select(const buffer<word>& cond, const buffer<T>& a, const buffer<T>& b) = 0;
  virtual handle<T> select_const(const buffer<word>& cond, const buffer<T>& a, T b) = 0;
  virtual handle<T> shift(const buffer<T>& a, std::int64_t offset, T fill) = 0;
  virtual handle<T> broadcast(T value, std::int64_t m) = 0;
  virtual handle<T> gather(const buffer<T>& a, const buffer<word>& idx) = 0;
  virtual handle<T> gather_strided(const buffer<T>& a, std::int64_t start, std::int64_t stride, std::int64_t count) = 0;
  virtual handle<T> scatter(const buffer<T>& dst, const buffer<word>& idx, const buffer<T>& v) = 0;
  virtual handle<T> compress(const buffer<T>& a, const buffer<word>& mask, const buffer<word>& pos) = 0;
  virtual handle<T> resize(const buffer<T>& a, std::int64_t m, T fill) = 0;
  virtual handle<T> revspec(const buffer<T>& a, const buffer<word>& f) = 0;
  // block-prefix (f == nullptr) or block-seg-prefix over blocks of k.
  virtual handle<T> block_prefix(const buffer<T>& a, const buffer<word>* f, std::int64_t k) = 0;
  virtual handle<T> mmu(const buffer<T>& a, const buffer<T>& w) = 0;
};

// What a timing backend measured (backend::collect_times).
struct measured_times {
  std::vector<double> instruction_ns;  // one per bracketed instruction, in order
  double span_ns = 0;                  // first start to last end, on the device's clock
};

// A backend: both word types plus the word-only and conversion instructions, and timing.
class backend : public typed_executor<word>, public typed_executor<real> {
 public:
#define MMV_BOTH(name) using typed_executor<word>::name; using typed_executor<real>::name;
  MMV_BOTH(upload) MMV_BOTH(download) MMV_BOTH(binary) MMV_BOTH(binary_const) MMV_BOTH(unary)
  MMV_BOTH(compare) MMV_BOTH(compare_const) MMV_BOTH(select) MMV_BOTH(select_const) MMV_BOTH(shift)
  MMV_BOTH(broadcast) MMV_BOTH(gather) MMV_BOTH(gather_strided) MMV_BOTH(scatter) MMV_BOTH(compress)
  MMV_BOTH(resize) MMV_BOTH(revspec) MMV_BOTH(block_prefix) MMV_BOTH(mmu)
#undef MMV_BOTH

  // "simulate" or "cuda".
  virtual std::string name() const = 0;
  // shl / shr by k bits (arithmetic right shift).
  virtual handle<word> shift_bits(op_code op, const buffer<word>& a, int k) = 0;
  // out[i] = bit k[i] of a[i].
  virtual handle<word> extract_bit(const buffer<word>& a, const buffer<word>& k) = 0;
  // out[i] = start + step * (i / block).
  virtual handle<word> iota(std::int64_t m, word start, word step, std::int64_t block) = 0;
  // out[i] = i % block.
  virtual handle<word> lane_index(std::int64_t m, std::int64_t block) = 0;
  virtual handle<real> to_real(const buffer<word>& a) = 0;

  // Brackets the execution of instruction number `seq` (its ledger position) named `op`; a
  // timing backend measures between the two calls.
  virtual void begin_instruction(std::int64_t seq, const char* op) { (void)seq, (void)op; }
  virtual void end_instruction(std::int64_t seq) { (void)seq; }
  // Instead of end_instruction when executing instruction `seq` threw: it retires no record, so
  // a timing backend forgets its bracket.
  virtual void abandon_instruction(std::int64_t seq) { (void)seq; }
  // Measured device times of the instructions bracketed since the last call, in order (empty
  // when the backend does not time: simulate), and the span from the first one's start to the
  // last one's end with the instructions launched back to back (launch gaps included). Waits
  // for the device.
  virtual measured_times collect_times() { return {}; }
  // The first real result that was not finite since the backend was made (checking backends:
  // simulate, cuda); none from a backend that does not check.
  virtual std::optional<nonfinite_result> first_nonfinite() const { return std::nullopt; }
};

// Implements typed_executor<T>'s instructions for a backend `Derived` by forwarding each to
// Derived's do_<instruction> with the same arguments (a member template over word and real, or
// one overload per type), so that a backend writes each instruction once. Used through
// backend_of; Derived befriends typed_forwarding where its do_ functions are private.
template <class Derived, class T, class Base>
class typed_forwarding : public Base {
 public:
  using Base::upload, Base::download, Base::binary, Base::binary_const, Base::unary, Base::compare, Base::compare_const,
      Base::select, Base::select_const, Base::shift, Base::broadcast, Base::gather, Base::gather_strided, Base::scatter,
      Base::compress, Base::resize, Base::revspec, Base::block_prefix, Base::mmu;

  handle<T> upload(std::span<const T> v) override { return self().do_upload(v); }
  std::vector<T> download(const buffer<T>& v) override { return self().do_download(v); }
  handle<T> binary(op_code op, const buffer<T>& a, const buffer<T>& b) override { return self().do_binary(op, a, b); }
  handle<T> binary_const(op_code op, const buffer<T>& a, T c) override { return self().do_binary_const(op, a, c); }
  handle<T> unary(op_code op, const buffer<T>& a) override { return self().do_unary(op, a); }
  handle<word> compare(op_code op, const buffer<T>& a, const buffer<T>& b) override { return self().do_compare(op, a, b); }
  handle<word> compare_const(op_code op, const buffer<T>& a, T c) override { return self().do_compare_const(op, a, c); }
  handle<T> select(const buffer<word>& k, const buffer<T>& a, const buffer<T>& b) override { return self().do_select(k, a, b); }
  handle<T> select_const(const buffer<word>& k, const buffer<T>& a, T b) override { return self().do_select_const(k, a, b); }
  handle<T> shift(const buffer<T>& a, std::int64_t offset, T fill) override { return self().do_shift(a, offset, fill); }
  handle<T> broadcast(T value, std::int64_t m) override { return self().do_broadcast(value, m); }
  handle<T> gather(const buffer<T>& a, const buffer<word>& idx) override { return self().do_gather(a, idx); }
  handle<T> gather_strided(const buffer<T>& a, std::int64_t start, std::int64_t stride, std::int64_t count) override {
    return self().do_gather_strided(a, start, stride, count);
  }
  handle<T> scatter(const buffer<T>& dst, const buffer<word>& idx, const buffer<T>& v) override { return self().do_scatter(dst, idx, v); }
  handle<T> compress(const buffer<T>& a, const buffer<word>& mask, const buffer<word>& pos) override {
    return self().do_compress(a, mask, pos);
  }
  handle<T> resize(const buffer<T>& a, std::int64_t m, T fill) override { return self().do_resize(a, m, fill); }
  handle<T> revspec(const buffer<T>& a, const buffer<word>& f) override { return self().do_revspec(a, f); }
  handle<T> block_prefix(const buffer<T>& a, const buffer<word>* f, std::int64_t k) override { return self().do_block_prefix(a, f, k); }
  handle<T> mmu(const buffer<T>& a, const buffer<T>& w) override { return self().do_mmu(a, w); }

 private:
  Derived& self() { return static_cast<Derived&>(*this); }
};

// The base of a backend `Derived`: the typed instructions of both word types forwarded to its
// do_ functions (typed_forwarding); the word-only ones and timing it overrides itself.
template <class Derived>
using backend_of = typed_forwarding<Derived, real, typed_forwarding<Derived, word, backend>>;

// The backend registry (backend.cpp names every backend of the machine once): `simulate` is
// always built in; `cuda` is built where a CUDA toolkit was found and registered by
// gpu::register_cuda_backend (gpu/backend/).

// Makes the backend `config.backend` names for a machine with this configuration. Throws
// model_error naming the backend when it is unknown, not built in, or cannot start (no device).
std::unique_ptr<backend> make_backend(const machine_config& config);
using backend_factory = std::function<std::unique_ptr<backend>(const machine_config&)>;
// Makes `name`, a backend of the registry, available to every machine of this program (the
// last factory registered wins). Throws std::logic_error for a name the registry lacks.
void register_backend(const std::string& name, backend_factory factory);
// The names of the machine's backends, built into this program or not, simulate first.
std::vector<std::string> backend_names();
// Those names for messages ("simulate or cuda"); only the timing backends' with timing_only.
std::string backend_choices(bool timing_only = false);
// Every backend with a few words on it, for help texts ("simulate (CPU) | cuda (GPU, timed)").
std::string backend_help();
// Whether backend `name` measures its instructions' times on a device (collect_times).
bool backend_times(const std::string& name);

}  // namespace mmv
