// The machine's front: construction, regions, issuing an instruction to the backend, retiring
// it into the ledger, the DAG and the trace, and the scalar unit's transfers. The instructions'
// argument checks (the VCU's and the MMU's) are in machine_vcu.cpp; their execution in the
// backends.
#include "mmvram/model/machine.hpp"

#include "word_arith.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <sstream>
#include <type_traits>
#include <vector>

namespace mmv {

machine::machine(machine_config config) : config_(std::move(config)) {
  if (config_.s < 2)
    throw model_error("MMU tile size s must be at least 2 (got " + std::to_string(config_.s) + ")");
  if (config_.s > 4096)
    throw model_error("MMU tile size s must be at most 4096 (got " + std::to_string(config_.s) + ")");
  if (config_.word_bits < 2 || config_.word_bits > 64)
    throw model_error("word width B must be in 2..64 (got " + std::to_string(config_.word_bits) + ")");
  if (config_.iterated_addition_limit < 0)
    throw model_error("iterated_addition_limit must be >= 0 (got " + std::to_string(config_.iterated_addition_limit) + ")");
  backend_ = make_backend(config_);
  empty_words_ = backend_->upload(std::span<const word>());
  empty_reals_ = backend_->upload(std::span<const real>());
}

machine::~machine() = default;
machine::machine(machine&&) noexcept = default;
machine& machine::operator=(machine&&) noexcept = default;

std::string machine::backend_name() const { return backend_->name(); }

std::optional<nonfinite_result> machine::first_nonfinite() const { return backend_->first_nonfinite(); }

region_guard machine::region(const std::string& name) {
  region_stack_.push_back(name);
  return region_guard(*this);
}

region_guard::~region_guard() { m_.region_stack_.pop_back(); }

word machine::word_min() const { return detail::word_min(config_.word_bits); }
word machine::word_max() const { return detail::word_max(config_.word_bits); }

template <class T>
void machine::require_type() const {
  if constexpr (std::is_same_v<T, real>) {
    if (config_.format == number_format::integer)
      throw model_error("real-valued vectors need a float32 or float64 machine (this one is integer)");
  }
}

void machine::require_same_length(const std::string& op, std::int64_t a, std::int64_t b) const {
  if (a != b)
    throw model_error(op + ": operand lengths differ (" + std::to_string(a) + " vs " + std::to_string(b) + ")");
}

template <class T>
T machine::constant(const char*, T c) const {
  return detail::round_constant(c, config_.format);
}

void validate_flags(std::span<const word> flags) {
  for (std::size_t i = 0; i < flags.size(); ++i)
    if (flags[i] != 0 && flags[i] != 1)
      throw model_error("flag at index " + std::to_string(i) + " is " + std::to_string(flags[i]) + ", expected 0 or 1");
}

template <class T>
const buffer<T>& machine::buf(const vec<T>& v) const {
  if (v.data_) return *v.data_;
  if constexpr (std::is_same_v<T, word>) return *empty_words_;
  else return *empty_reals_;
}

namespace {
template <class T>
std::string preview_of(const std::vector<T>& out, std::int64_t size) {
  std::ostringstream s;
  s << "[";
  for (std::size_t i = 0; i < out.size(); ++i) s << (i ? " " : "") << out[i];
  if (size > static_cast<std::int64_t>(out.size())) s << " ...";
  s << "]";
  return s.str();
}
}  // namespace

template <class T>
vec<T> machine::retire(op_code op, const operand_sizes& sizes, handle<T> out, std::initializer_list<vec_node> inputs,
                       const std::string* listed_as) {
  const instruction_info& info = info_of(op);
  const std::string name = listed_as ? *listed_as : std::string(info.name);
  vec_node node;
  node.record = static_cast<std::int64_t>(ledger_.records().size());
  std::vector<std::int64_t> producers, input_records;
  for (const auto& in : inputs) {
    node.depth = std::max(node.depth, in.depth);
    producers.push_back(in.producer);
    if (in.record >= 0) input_records.push_back(in.record);
  }
  node.depth += info.where == unit::scalar ? 0 : 1;
  std::string region;
  for (const auto& r : region_stack_) region += (region.empty() ? "" : "/") + r;
  const std::int64_t length = out->size();
  if (config_.record_dag) node.producer = dag_.add(dag_vertex{name, info.where, length, region}, producers);
  std::string preview;
  if (config_.record_trace) {
    const std::vector<T> all = backend_->download(*out);
    preview = preview_of(std::vector<T>(all.begin(), all.begin() + std::min<std::size_t>(all.size(), 16)), length);
  }
  operand_sizes priced = sizes;
  priced.out = length;
  priced.s = config_.s;
  instruction_record record{name, info.where, region, length, price_of(op, priced), node.depth, preview, -1.0,
                            std::move(input_records), priced};
  record.real_output = std::is_same_v<T, real>;
  ledger_.retire(std::move(record));
  return vec<T>(std::move(out), node);
}

void machine::collect_timing() {
  const measured_times t = backend_->collect_times();
  if (t.instruction_ns.empty()) return;
  ledger_.set_measured(timed_upto_, t.instruction_ns, t.span_ns);
  timed_upto_ += t.instruction_ns.size();
}

template <class T>
vec<T> machine::load(std::span<const T> values, const std::string& name) {
  require_type<T>();
  std::vector<T> held(values.begin(), values.end());
  if constexpr (std::is_same_v<T, real>) {
    if (config_.format == number_format::float32)
      for (auto& v : held) v = static_cast<real>(static_cast<float>(v));
  } else {
    for (std::size_t i = 0; i < held.size(); ++i)
      if (held[i] < word_min() || held[i] > word_max())
        throw width_error(name, static_cast<std::int64_t>(i), std::to_string(held[i]), config_.word_bits);
  }
  const auto m = static_cast<std::int64_t>(held.size());
  const auto seq = static_cast<std::int64_t>(ledger_.records().size());
  const auto issued = std::chrono::steady_clock::now();
  backend_->begin_instruction(seq, "load");
  handle<T> out;
  try {
    out = backend_->upload(std::span<const T>(held));
  } catch (...) {
    backend_->abandon_instruction(seq);
    throw;
  }
  backend_->end_instruction(seq);
  const std::chrono::duration<double, std::nano> host = std::chrono::steady_clock::now() - issued;
  // Loads are listed under their own name (x, const:prefix-ones, ...).
  vec<T> v = retire<T>(op_code::load, operand_sizes{m, m}, std::move(out), {}, &name);
  ledger_.set_host_time(host.count());
  return v;
}

template <class T>
std::vector<T> machine::read(const vec<T>& v) const {
  return backend_->download(buf(v));
}

#define MMV_INSTANTIATE_CORE(T)                                                                           \
  template vec<T> machine::retire<T>(op_code, const operand_sizes&, handle<T>, std::initializer_list<vec_node>, const std::string*); \
  template const buffer<T>& machine::buf<T>(const vec<T>&) const;                                       \
  template void machine::require_type<T>() const;                                                       \
  template T machine::constant<T>(const char*, T) const;                                                 \
  template vec<T> machine::load<T>(std::span<const T>, const std::string&);                             \
  template std::vector<T> machine::read<T>(const vec<T>&) const;
MMV_INSTANTIATE_CORE(word)
MMV_INSTANTIATE_CORE(real)
#undef MMV_INSTANTIATE_CORE

}  // namespace mmv
