// VCU arithmetic, comparison, selection and bit logic: element-wise, constant-depth (AC[0])
// instructions. Words are exact and width-checked; reals follow the machine's IEEE format.
#include "mmvram/model/machine.hpp"

#include "word_arith.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace mmv {

using detail::exact_words;

namespace {
template <class T>
bool compare_one(const std::string& op, T a, T b) {
  if (op == "eq") return a == b;
  if (op == "ne") return a != b;
  if (op == "lt") return a < b;
  if (op == "le") return a <= b;
  if (op == "gt") return a > b;
  if (op == "ge") return a >= b;
  throw model_error("compare: unknown comparison '" + op + "' (expected eq ne lt le gt ge)");
}

}  // namespace

// ---- arithmetic ----

template <class T>
vec<T> machine::add(const vec<T>& a, const vec<T>& b) {
  require_type<T>();
  require_same_length("add", a.size(), b.size());
  const auto &x = a.values(), &y = b.values();
  array<T> out;
  if constexpr (std::is_same_v<T, word>) {
    out = exact_words("add", a.size(), word_bits(), [&](std::int64_t i) { return detail::wide(x[i]) + y[i]; });
  } else {
    out = x + y;
    detail::round_to_format(out, config_.format);
  }
  return retire<T>("add", unit::vcu, cost_of_vcu(a.size(), 2 * a.size()), std::move(out), {a.node_, b.node_});
}

template <class T>
vec<T> machine::add(const vec<T>& a, T c) {
  require_type<T>();
  c = detail::round_constant(c, config_.format);
  const auto& x = a.values();
  array<T> out;
  if constexpr (std::is_same_v<T, word>) {
    out = exact_words("add", a.size(), word_bits(), [&](std::int64_t i) { return detail::wide(x[i]) + c; });
  } else {
    out = x + c;
    detail::round_to_format(out, config_.format);
  }
  return retire<T>("add-const", unit::vcu, cost_of_vcu(a.size(), a.size()), std::move(out), {a.node_});
}

template <class T>
vec<T> machine::sub(const vec<T>& a, const vec<T>& b) {
  require_type<T>();
  require_same_length("sub", a.size(), b.size());
  const auto &x = a.values(), &y = b.values();
  array<T> out;
  if constexpr (std::is_same_v<T, word>) {
    out = exact_words("sub", a.size(), word_bits(), [&](std::int64_t i) { return detail::wide(x[i]) - y[i]; });
  } else {
    out = x - y;
    detail::round_to_format(out, config_.format);
  }
  return retire<T>("sub", unit::vcu, cost_of_vcu(a.size(), 2 * a.size()), std::move(out), {a.node_, b.node_});
}

template <class T>
vec<T> machine::sub(const vec<T>& a, T c) {
  require_type<T>();
  c = detail::round_constant(c, config_.format);
  const auto& x = a.values();
  array<T> out;
  if constexpr (std::is_same_v<T, word>) {
    out = exact_words("sub", a.size(), word_bits(), [&](std::int64_t i) { return detail::wide(x[i]) - c; });
  } else {
    out = x - c;
    detail::round_to_format(out, config_.format);
  }
  return retire<T>("sub-const", unit::vcu, cost_of_vcu(a.size(), a.size()), std::move(out), {a.node_});
}

template <class T>
vec<T> machine::neg(const vec<T>& a) {
  require_type<T>();
  const auto& x = a.values();
  array<T> out;
  if constexpr (std::is_same_v<T, word>)
    out = exact_words("neg", a.size(), word_bits(), [&](std::int64_t i) { return -detail::wide(x[i]); });
  else
    out = -x;
  return retire<T>("neg", unit::vcu, cost_of_vcu(a.size(), a.size()), std::move(out), {a.node_});
}

template <class T>
vec<T> machine::min(const vec<T>& a, const vec<T>& b) {
  require_type<T>();
  require_same_length("min", a.size(), b.size());
  array<T> out = a.values().min(b.values());
  return retire<T>("min", unit::vcu, cost_of_vcu(a.size(), 2 * a.size()), std::move(out), {a.node_, b.node_});
}

template <class T>
vec<T> machine::max(const vec<T>& a, const vec<T>& b) {
  require_type<T>();
  require_same_length("max", a.size(), b.size());
  array<T> out = a.values().max(b.values());
  return retire<T>("max", unit::vcu, cost_of_vcu(a.size(), 2 * a.size()), std::move(out), {a.node_, b.node_});
}

// ---- comparison, selection, logic ----

template <class T>
word_vec machine::compare(const std::string& op, const vec<T>& a, const vec<T>& b) {
  require_type<T>();
  require_same_length(op, a.size(), b.size());
  const auto &x = a.values(), &y = b.values();
  compare_one<T>(op, T{}, T{});  // rejects an unknown op even on empty vectors
  array<word> out(a.size());
  for (std::int64_t i = 0; i < a.size(); ++i) out[i] = compare_one(op, x[i], y[i]) ? 1 : 0;
  return retire<word>(op, unit::vcu, cost_of_vcu(a.size(), 2 * a.size()), std::move(out), {a.node_, b.node_});
}

template <class T>
word_vec machine::compare(const std::string& op, const vec<T>& a, T c) {
  require_type<T>();
  c = detail::round_constant(c, config_.format);
  const auto& x = a.values();
  compare_one<T>(op, T{}, T{});
  array<word> out(a.size());
  for (std::int64_t i = 0; i < a.size(); ++i) out[i] = compare_one(op, x[i], c) ? 1 : 0;
  return retire<word>(op + "-const", unit::vcu, cost_of_vcu(a.size(), a.size()), std::move(out), {a.node_});
}

template <class T>
vec<T> machine::select(const word_vec& cond, const vec<T>& a, const vec<T>& b) {
  require_type<T>();
  require_same_length("select", cond.size(), a.size());
  require_same_length("select", cond.size(), b.size());
  require_flags("select", cond);
  array<T> out = (cond.values() != 0).select(a.values(), b.values());
  return retire<T>("select", unit::vcu, cost_of_vcu(a.size(), 3 * a.size()), std::move(out),
                   {cond.node_, a.node_, b.node_});
}

template <class T>
vec<T> machine::select(const word_vec& cond, const vec<T>& a, T b) {
  require_type<T>();
  require_same_length("select", cond.size(), a.size());
  require_flags("select", cond);
  b = detail::round_constant(b, config_.format);
  array<T> out = (cond.values() != 0).select(a.values(), b);
  check_width("select-const", out);
  return retire<T>("select-const", unit::vcu, cost_of_vcu(a.size(), 2 * a.size()), std::move(out),
                   {cond.node_, a.node_});
}

word_vec machine::logic_and(const word_vec& a, const word_vec& b) {
  require_same_length("and", a.size(), b.size());
  array<word> out(a.size());
  for (std::int64_t i = 0; i < a.size(); ++i) out[i] = a.values()[i] & b.values()[i];
  return retire<word>("and", unit::vcu, cost_of_vcu(a.size(), 2 * a.size()), std::move(out), {a.node_, b.node_});
}

word_vec machine::logic_or(const word_vec& a, const word_vec& b) {
  require_same_length("or", a.size(), b.size());
  array<word> out(a.size());
  for (std::int64_t i = 0; i < a.size(); ++i) out[i] = a.values()[i] | b.values()[i];
  return retire<word>("or", unit::vcu, cost_of_vcu(a.size(), 2 * a.size()), std::move(out), {a.node_, b.node_});
}

word_vec machine::logic_xor(const word_vec& a, const word_vec& b) {
  require_same_length("xor", a.size(), b.size());
  array<word> out(a.size());
  for (std::int64_t i = 0; i < a.size(); ++i) out[i] = a.values()[i] ^ b.values()[i];
  return retire<word>("xor", unit::vcu, cost_of_vcu(a.size(), 2 * a.size()), std::move(out), {a.node_, b.node_});
}

word_vec machine::logic_not01(const word_vec& a) {
  require_flags("not", a);
  array<word> out = 1 - a.values();
  return retire<word>("not", unit::vcu, cost_of_vcu(a.size(), a.size()), std::move(out), {a.node_});
}

word_vec machine::shift_left_bits(const word_vec& a, int k) {
  if (k < 0 || k >= word_bits())
    throw model_error("shl: shift " + std::to_string(k) + " outside 0.." + std::to_string(word_bits() - 1));
  const auto& x = a.values();
  array<word> out = exact_words("shl", a.size(), word_bits(), [&](std::int64_t i) { return detail::wide(x[i]) * (detail::wide(1) << k); });
  return retire<word>("shl", unit::vcu, cost_of_vcu(a.size(), a.size()), std::move(out), {a.node_});
}

word_vec machine::shift_right_bits(const word_vec& a, int k) {
  if (k < 0 || k >= word_bits())
    throw model_error("shr: shift " + std::to_string(k) + " outside 0.." + std::to_string(word_bits() - 1));
  array<word> out(a.size());
  for (std::int64_t i = 0; i < a.size(); ++i) out[i] = a.values()[i] >> k;
  return retire<word>("shr", unit::vcu, cost_of_vcu(a.size(), a.size()), std::move(out), {a.node_});
}

word_vec machine::extract_bit(const word_vec& a, const word_vec& k) {
  require_same_length("extract-bit", a.size(), k.size());
  array<word> out(a.size());
  for (std::int64_t i = 0; i < a.size(); ++i) {
    const word b = k.values()[i];
    if (b < 0 || b >= word_bits())
      throw model_error("extract-bit: bit index " + std::to_string(b) + " at index " + std::to_string(i) +
                        " outside 0.." + std::to_string(word_bits() - 1));
    out[i] = (a.values()[i] >> b) & 1;
  }
  return retire<word>("extract-bit", unit::vcu, cost_of_vcu(a.size(), 2 * a.size()), std::move(out), {a.node_, k.node_});
}

#define MMV_INSTANTIATE_VCU_ARITH(T) \
  template vec<T> machine::add<T>(const vec<T>&, const vec<T>&); \
  template vec<T> machine::add<T>(const vec<T>&, T); \
  template vec<T> machine::sub<T>(const vec<T>&, const vec<T>&); \
  template vec<T> machine::sub<T>(const vec<T>&, T); \
  template vec<T> machine::neg<T>(const vec<T>&); \
  template vec<T> machine::min<T>(const vec<T>&, const vec<T>&); \
  template vec<T> machine::max<T>(const vec<T>&, const vec<T>&); \
  template word_vec machine::compare<T>(const std::string&, const vec<T>&, const vec<T>&); \
  template word_vec machine::compare<T>(const std::string&, const vec<T>&, T); \
  template vec<T> machine::select<T>(const word_vec&, const vec<T>&, const vec<T>&); \
  template vec<T> machine::select<T>(const word_vec&, const vec<T>&, T); \

MMV_INSTANTIATE_VCU_ARITH(word)
MMV_INSTANTIATE_VCU_ARITH(real)
#undef MMV_INSTANTIATE_VCU_ARITH

}  // namespace mmv
