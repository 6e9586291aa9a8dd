// Simulate backend: transfers, element-wise arithmetic, comparisons, selection and bit logic.
// Words are computed in 128 bits and checked against B; reals follow the machine's format.
#include "simulate_backend.hpp"

#include <cmath>

namespace mmv::simulate {

using detail::exact_words;

void simulate_backend::settle(const char* op, array<real>& a) {
  round(a);
  if (first_nonfinite_) return;
  for (Eigen::Index i = 0; i < a.size(); ++i)
    if (!std::isfinite(a[i])) {
      first_nonfinite_ = nonfinite_result{sequence_, op, static_cast<std::int64_t>(i), a[i]};
      return;
    }
}

template <class T>
void simulate_backend::check_width(const char* op, const array<T>& out) const {
  if constexpr (std::is_same_v<T, word>) {
    for (Eigen::Index i = 0; i < out.size(); ++i)
      if (!vcu::fits(out[i], c_.word_bits)) throw width_error(op, i, std::to_string(out[i]), c_.word_bits);
  }
}

void simulate_backend::require_flags(const char* op, const buffer<word>& f) const {
  const auto& v = host(f);
  for (Eigen::Index i = 0; i < v.size(); ++i)
    if (!vcu::is_flag(v[i]))
      throw model_error(std::string(op) + ": flag/mask at index " + std::to_string(i) + " is " + std::to_string(v[i]) +
                        ", expected 0 or 1");
}

template <class T>
handle<T> simulate_backend::do_upload(std::span<const T> v) {
  return wrap<T>(Eigen::Map<const array<T>>(v.data(), static_cast<Eigen::Index>(v.size())));
}

template <class T>
std::vector<T> simulate_backend::do_download(const buffer<T>& v) {
  const auto& a = host(v);
  return std::vector<T>(a.data(), a.data() + a.size());
}

namespace {
// out[i] = f(i) for i in [0, m).
template <class T, class F>
array<T> elementwise(std::int64_t m, F f) {
  array<T> out(m);
  for (std::int64_t i = 0; i < m; ++i) out[i] = f(i);
  return out;
}
}  // namespace

template <class T>
handle<T> simulate_backend::do_binary(op_code op, const buffer<T>& a, const buffer<T>& b) {
  const auto &x = host(a), &y = host(b);
  const char* name = info_of(op).name;
  if (!vcu::is_binary<T>(op)) throw model_error(std::string("simulate: ") + name + " is not a binary instruction of its type");
  if constexpr (std::is_same_v<T, word>) {
    return wrap<T>(exact_words(name, a.size(), c_.word_bits, [&](std::int64_t i) { return vcu::binary(op, x[i], y[i]); }));
  } else {
    array<T> out = elementwise<T>(a.size(), [&](std::int64_t i) { return vcu::binary(op, x[i], y[i]); });
    settle(name, out);
    return wrap<T>(std::move(out));
  }
}

template <class T>
handle<T> simulate_backend::do_binary_const(op_code op, const buffer<T>& a, T c) {
  const auto& x = host(a);
  const char* name = info_of(op).name;
  if (!vcu::is_binary<T>(op)) throw model_error(std::string("simulate: ") + name + " is not an instruction with a constant of its type");
  if constexpr (std::is_same_v<T, word>) {
    return wrap<T>(exact_words(name, a.size(), c_.word_bits, [&](std::int64_t i) { return vcu::binary(op, x[i], c); }));
  } else {
    array<T> out = elementwise<T>(a.size(), [&](std::int64_t i) { return vcu::binary(op, x[i], c); });
    settle(name, out);
    return wrap<T>(std::move(out));
  }
}

template <class T>
handle<T> simulate_backend::do_unary(op_code op, const buffer<T>& a) {
  const auto& x = host(a);
  const char* name = info_of(op).name;
  if (!vcu::is_unary<T>(op)) throw model_error(std::string("simulate: ") + name + " is not a unary instruction of its type");
  if constexpr (std::is_same_v<T, word>) {
    if (op == op_code::logic_not) require_flags(name, a);
    return wrap<T>(exact_words(name, a.size(), c_.word_bits, [&](std::int64_t i) { return vcu::unary(op, x[i]); }));
  } else {
    array<T> out = elementwise<T>(a.size(), [&](std::int64_t i) { return vcu::unary(op, x[i]); });
    settle(name, out);
    return wrap<T>(std::move(out));
  }
}

template <class T>
handle<word> simulate_backend::do_compare(op_code op, const buffer<T>& a, const buffer<T>& b) {
  const auto &x = host(a), &y = host(b);
  return wrap<word>(elementwise<word>(a.size(), [&](std::int64_t i) { return word{vcu::compare(op, x[i], y[i])}; }));
}

template <class T>
handle<word> simulate_backend::do_compare_const(op_code op, const buffer<T>& a, T c) {
  const auto& x = host(a);
  return wrap<word>(elementwise<word>(a.size(), [&](std::int64_t i) { return word{vcu::compare(op, x[i], c)}; }));
}

template <class T>
handle<T> simulate_backend::do_select(const buffer<word>& k, const buffer<T>& a, const buffer<T>& b) {
  require_flags("select", k);
  const auto &f = host(k), &x = host(a), &y = host(b);
  return wrap<T>(elementwise<T>(a.size(), [&](std::int64_t i) { return vcu::select(f[i], x[i], y[i]); }));
}

template <class T>
handle<T> simulate_backend::do_select_const(const buffer<word>& k, const buffer<T>& a, T b) {
  require_flags("select", k);
  const auto &f = host(k), &x = host(a);
  array<T> out = elementwise<T>(a.size(), [&](std::int64_t i) { return vcu::select(f[i], x[i], b); });
  check_width("select-const", out);
  return wrap<T>(std::move(out));
}

handle<word> simulate_backend::shift_bits(op_code op, const buffer<word>& a, int k) {
  const auto& x = host(a);
  return wrap<word>(exact_words(info_of(op).name, a.size(), c_.word_bits, [&](std::int64_t i) { return vcu::shift_bits(op, x[i], k); }));
}

handle<word> simulate_backend::extract_bit(const buffer<word>& a, const buffer<word>& k) {
  const auto &x = host(a), &bits = host(k);
  array<word> out(a.size());
  for (Eigen::Index i = 0; i < out.size(); ++i) {
    const word b = bits[i];
    if (!vcu::is_bit_index(b, c_.word_bits))
      throw model_error("extract-bit: bit index " + std::to_string(b) + " at index " + std::to_string(i) + " outside 0.." +
                        std::to_string(c_.word_bits - 1));
    out[i] = vcu::extract_bit(x[i], b);
  }
  return wrap<word>(std::move(out));
}

handle<real> simulate_backend::to_real(const buffer<word>& a) {
  const auto& x = host(a);
  const bool float32 = c_.format == number_format::float32;
  return wrap<real>(elementwise<real>(a.size(), [&](std::int64_t i) { return vcu::to_real(x[i], float32); }));
}

#define MMV_SIM_ELEMENTWISE(T)                                                                      \
  template handle<T> simulate_backend::do_upload<T>(std::span<const T>);                                  \
  template std::vector<T> simulate_backend::do_download<T>(const buffer<T>&);                             \
  template handle<T> simulate_backend::do_binary<T>(op_code, const buffer<T>&, const buffer<T>&);        \
  template handle<T> simulate_backend::do_binary_const<T>(op_code, const buffer<T>&, T);                 \
  template handle<T> simulate_backend::do_unary<T>(op_code, const buffer<T>&);                           \
  template handle<word> simulate_backend::do_compare<T>(op_code, const buffer<T>&, const buffer<T>&);     \
  template handle<word> simulate_backend::do_compare_const<T>(op_code, const buffer<T>&, T);              \
  template handle<T> simulate_backend::do_select<T>(const buffer<word>&, const buffer<T>&, const buffer<T>&); \
  template handle<T> simulate_backend::do_select_const<T>(const buffer<word>&, const buffer<T>&, T);      \
  template void simulate_backend::check_width<T>(const char*, const array<T>&) const;
MMV_SIM_ELEMENTWISE(word)
MMV_SIM_ELEMENTWISE(real)
#undef MMV_SIM_ELEMENTWISE

}  // namespace mmv::simulate
