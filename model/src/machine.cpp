// The machine's bookkeeping: construction, regions, retiring instructions, width checks and
// the scalar unit's transfers. The instructions themselves are in vcu.cpp and mmu.cpp.
#include "mmvram/model/machine.hpp"

#include "word_arith.hpp"

#include <algorithm>
#include <sstream>
#include <vector>

namespace mmv {

machine::machine(machine_config config) : config_(config) {
  if (config_.s < 2)
    throw model_error("MMU tile size s must be at least 2 (got " + std::to_string(config_.s) + ")");
  if (config_.s > 4096)
    throw model_error("MMU tile size s must be at most 4096 (got " + std::to_string(config_.s) + ")");
  if (config_.word_bits < 2 || config_.word_bits > 64)
    throw model_error("word width B must be in 2..64 (got " + std::to_string(config_.word_bits) + ")");
}

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
    throw model_error(op + ": operand lengths differ (" + std::to_string(a) + " vs " +
                      std::to_string(b) + ")");
}

void machine::require_flags(const std::string& op, const word_vec& f) const {
  const auto& v = f.values();
  for (Eigen::Index i = 0; i < v.size(); ++i)
    if (v[i] != 0 && v[i] != 1)
      throw model_error(op + ": flag/mask at index " + std::to_string(i) + " is " +
                        std::to_string(v[i]) + ", expected 0 or 1");
}

void validate_flags(std::span<const word> flags) {
  for (std::size_t i = 0; i < flags.size(); ++i)
    if (flags[i] != 0 && flags[i] != 1)
      throw model_error("flag at index " + std::to_string(i) + " is " + std::to_string(flags[i]) +
                        ", expected 0 or 1");
}

template <class T>
void machine::check_width(const std::string& op, const array<T>& out) const {
  if constexpr (std::is_same_v<T, word>) {
    const word lo = word_min(), hi = word_max();
    for (Eigen::Index i = 0; i < out.size(); ++i)
      if (out[i] < lo || out[i] > hi)
        throw width_error(op, i, std::to_string(out[i]), config_.word_bits);
  }
}

namespace {
template <class T>
std::string preview_of(const array<T>& out) {
  std::ostringstream s;
  const Eigen::Index shown = std::min<Eigen::Index>(out.size(), 16);
  s << "[";
  for (Eigen::Index i = 0; i < shown; ++i) s << (i ? " " : "") << out[i];
  if (out.size() > shown) s << " ...";
  s << "]";
  return s.str();
}
}  // namespace

template <class T>
vec<T> machine::retire(const std::string& op, unit where, const cost& price, array<T>&& out,
                       std::initializer_list<vec_node> inputs) {
  vec_node node;
  std::vector<std::int64_t> producers;
  for (const auto& in : inputs) {
    node.depth = std::max(node.depth, in.depth);
    producers.push_back(in.producer);
  }
  node.depth += where == unit::scalar ? 0 : 1;
  std::string region;
  for (const auto& r : region_stack_) region += (region.empty() ? "" : "/") + r;
  if (config_.record_dag)
    node.producer = dag_.add(dag_vertex{op, where, static_cast<std::int64_t>(out.size()), region},
                             producers);
  instruction_record rec{op, where, region, static_cast<std::int64_t>(out.size()), price,
                         node.depth, config_.record_trace ? preview_of(out) : std::string()};
  ledger_.retire(std::move(rec));
  return vec<T>(std::make_shared<const array<T>>(std::move(out)), node);
}

template <class T>
vec<T> machine::load(std::span<const T> values, const std::string& name) {
  require_type<T>();
  array<T> out = Eigen::Map<const array<T>>(values.data(), static_cast<Eigen::Index>(values.size()));
  if constexpr (std::is_same_v<T, real>) detail::round_to_format(out, config_.format);
  check_width(name, out);
  const auto m = static_cast<std::int64_t>(values.size());
  return retire<T>(name, unit::scalar, cost_of_scalar(m, m), std::move(out), {});
}

template <class T>
std::vector<T> machine::read(const vec<T>& v) const {
  const auto& a = v.values();
  return std::vector<T>(a.data(), a.data() + a.size());
}

#define MMV_INSTANTIATE_CORE(T)                                                              \
  template vec<T> machine::retire<T>(const std::string&, unit, const cost&, array<T>&&,     \
                                     std::initializer_list<vec_node>);                      \
  template void machine::check_width<T>(const std::string&, const array<T>&) const;         \
  template void machine::require_type<T>() const;                                           \
  template vec<T> machine::load<T>(std::span<const T>, const std::string&);                 \
  template std::vector<T> machine::read<T>(const vec<T>&) const;
MMV_INSTANTIATE_CORE(word)
MMV_INSTANTIATE_CORE(real)
#undef MMV_INSTANTIATE_CORE

}  // namespace mmv
