// Simulate backend: transfers, element-wise arithmetic, comparisons, selection and bit logic.
// Words are computed in 128 bits and checked against B; reals follow the machine's format.
#include "simulate_backend.hpp"

#include <cmath>

namespace mmv::simulate {

using detail::exact_words;
using detail::wide;

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
    const word lo = detail::word_min(c_.word_bits), hi = detail::word_max(c_.word_bits);
    for (Eigen::Index i = 0; i < out.size(); ++i)
      if (out[i] < lo || out[i] > hi) throw width_error(op, i, std::to_string(out[i]), c_.word_bits);
  }
}

void simulate_backend::require_flags(const char* op, const buffer<word>& f) const {
  const auto& v = host(f);
  for (Eigen::Index i = 0; i < v.size(); ++i)
    if (v[i] != 0 && v[i] != 1)
      throw model_error(std::string(op) + ": flag/mask at index " + std::to_string(i) + " is " + std::to_string(v[i]) +
                        ", expected 0 or 1");
}

template <class T>
handle<T> simulate_backend::up(std::span<const T> v) {
  return wrap<T>(Eigen::Map<const array<T>>(v.data(), static_cast<Eigen::Index>(v.size())));
}

template <class T>
std::vector<T> simulate_backend::down(const buffer<T>& v) {
  const auto& a = host(v);
  return std::vector<T>(a.data(), a.data() + a.size());
}

template <class T>
handle<T> simulate_backend::bin(op_code op, const buffer<T>& a, const buffer<T>& b) {
  const auto &x = host(a), &y = host(b);
  const char* name = info_of(op).name;
  array<T> out;
  if constexpr (std::is_same_v<T, word>) {
    const auto m = a.size();
    const int B = c_.word_bits;
    switch (op) {
      case op_code::add: out = exact_words(name, m, B, [&](std::int64_t i) { return wide(x[i]) + y[i]; }); break;
      case op_code::sub: out = exact_words(name, m, B, [&](std::int64_t i) { return wide(x[i]) - y[i]; }); break;
      case op_code::min: out = x.min(y); break;
      case op_code::max: out = x.max(y); break;
      case op_code::logic_and: out = x.binaryExpr(y, [](word p, word q) { return p & q; }); break;
      case op_code::logic_or: out = x.binaryExpr(y, [](word p, word q) { return p | q; }); break;
      case op_code::logic_xor: out = x.binaryExpr(y, [](word p, word q) { return p ^ q; }); break;
      default: throw model_error(std::string("simulate: ") + name + " is not a binary word instruction");
    }
  } else {
    switch (op) {
      case op_code::add: out = x + y; break;
      case op_code::sub: out = x - y; break;
      case op_code::min: out = x.min(y); break;
      case op_code::max: out = x.max(y); break;
      case op_code::mul: out = x * y; break;
      case op_code::div: out = x / y; break;
      default: throw model_error(std::string("simulate: ") + name + " is not a binary real instruction");
    }
    settle(name, out);
  }
  return wrap<T>(std::move(out));
}

template <class T>
handle<T> simulate_backend::bin_const(op_code op, const buffer<T>& a, T c) {
  const auto& x = host(a);
  const char* name = info_of(op).name;
  array<T> out;
  if constexpr (std::is_same_v<T, word>) {
    const int B = c_.word_bits;
    if (op == op_code::add_const) out = exact_words(name, a.size(), B, [&](std::int64_t i) { return wide(x[i]) + c; });
    else if (op == op_code::sub_const) out = exact_words(name, a.size(), B, [&](std::int64_t i) { return wide(x[i]) - c; });
    else throw model_error(std::string("simulate: ") + name + " is not a word instruction with a constant");
  } else {
    if (op == op_code::add_const) out = x + c;
    else if (op == op_code::sub_const) out = x - c;
    else if (op == op_code::mul_const) out = x * c;
    else throw model_error(std::string("simulate: ") + name + " is not a real instruction with a constant");
    settle(name, out);
  }
  return wrap<T>(std::move(out));
}

template <class T>
handle<T> simulate_backend::un(op_code op, const buffer<T>& a) {
  const auto& x = host(a);
  array<T> out;
  if constexpr (std::is_same_v<T, word>) {
    if (op == op_code::neg) {
      out = exact_words("neg", a.size(), c_.word_bits, [&](std::int64_t i) { return -wide(x[i]); });
    } else if (op == op_code::logic_not) {
      require_flags("not", a);
      out = 1 - x;
    } else {
      throw model_error(std::string("simulate: ") + info_of(op).name + " is not a unary word instruction");
    }
  } else {
    if (op == op_code::neg) out = -x;
    else if (op == op_code::exp) out = x.unaryExpr([](real v) { return std::exp(v); });  // exact underflow to 0
    else if (op == op_code::log) out = x.unaryExpr([](real v) { return std::log(v); });
    else throw model_error(std::string("simulate: ") + info_of(op).name + " is not a unary real instruction");
    settle(info_of(op).name, out);
  }
  return wrap<T>(std::move(out));
}

namespace {
// The comparison of op (eq..ge or their -const forms) on one pair.
template <class T>
bool compare_one(op_code op, T a, T b) {
  const auto k = static_cast<int>(op) - static_cast<int>(op >= op_code::eq_const ? op_code::eq_const : op_code::eq);
  switch (k) {
    case 0: return a == b;
    case 1: return a != b;
    case 2: return a < b;
    case 3: return a <= b;
    case 4: return a > b;
    default: return a >= b;
  }
}
}  // namespace

template <class T>
handle<word> simulate_backend::cmp(op_code op, const buffer<T>& a, const buffer<T>& b) {
  const auto &x = host(a), &y = host(b);
  array<word> out(a.size());
  for (Eigen::Index i = 0; i < out.size(); ++i) out[i] = compare_one(op, x[i], y[i]) ? 1 : 0;
  return wrap<word>(std::move(out));
}

template <class T>
handle<word> simulate_backend::cmp_const(op_code op, const buffer<T>& a, T c) {
  const auto& x = host(a);
  array<word> out(a.size());
  for (Eigen::Index i = 0; i < out.size(); ++i) out[i] = compare_one(op, x[i], c) ? 1 : 0;
  return wrap<word>(std::move(out));
}

template <class T>
handle<T> simulate_backend::sel(const buffer<word>& k, const buffer<T>& a, const buffer<T>& b) {
  require_flags("select", k);
  return wrap<T>((host(k) != 0).select(host(a), host(b)));
}

template <class T>
handle<T> simulate_backend::sel_const(const buffer<word>& k, const buffer<T>& a, T b) {
  require_flags("select", k);
  array<T> out = (host(k) != 0).select(host(a), b);
  check_width("select-const", out);
  return wrap<T>(std::move(out));
}

handle<word> simulate_backend::shift_bits(op_code op, const buffer<word>& a, int k) {
  const auto& x = host(a);
  if (op == op_code::shift_left_bits)
    return wrap<word>(exact_words("shl", a.size(), c_.word_bits, [&](std::int64_t i) { return wide(x[i]) * (wide(1) << k); }));
  array<word> out(a.size());
  for (Eigen::Index i = 0; i < out.size(); ++i) out[i] = x[i] >> k;
  return wrap<word>(std::move(out));
}

handle<word> simulate_backend::extract_bit(const buffer<word>& a, const buffer<word>& k) {
  const auto &x = host(a), &bits = host(k);
  array<word> out(a.size());
  for (Eigen::Index i = 0; i < out.size(); ++i) {
    const word b = bits[i];
    if (b < 0 || b >= c_.word_bits)
      throw model_error("extract-bit: bit index " + std::to_string(b) + " at index " + std::to_string(i) + " outside 0.." +
                        std::to_string(c_.word_bits - 1));
    out[i] = (x[i] >> b) & 1;
  }
  return wrap<word>(std::move(out));
}

handle<real> simulate_backend::to_real(const buffer<word>& a) {
  array<real> out = host(a).cast<real>();
  round(out);
  return wrap<real>(std::move(out));
}

#define MMV_SIM_ELEMENTWISE(T)                                                                      \
  template handle<T> simulate_backend::up<T>(std::span<const T>);                                  \
  template std::vector<T> simulate_backend::down<T>(const buffer<T>&);                             \
  template handle<T> simulate_backend::bin<T>(op_code, const buffer<T>&, const buffer<T>&);        \
  template handle<T> simulate_backend::bin_const<T>(op_code, const buffer<T>&, T);                 \
  template handle<T> simulate_backend::un<T>(op_code, const buffer<T>&);                           \
  template handle<word> simulate_backend::cmp<T>(op_code, const buffer<T>&, const buffer<T>&);     \
  template handle<word> simulate_backend::cmp_const<T>(op_code, const buffer<T>&, T);              \
  template handle<T> simulate_backend::sel<T>(const buffer<word>&, const buffer<T>&, const buffer<T>&); \
  template handle<T> simulate_backend::sel_const<T>(const buffer<word>&, const buffer<T>&, T);      \
  template void simulate_backend::check_width<T>(const char*, const array<T>&) const;
MMV_SIM_ELEMENTWISE(word)
MMV_SIM_ELEMENTWISE(real)
#undef MMV_SIM_ELEMENTWISE

}  // namespace mmv::simulate
