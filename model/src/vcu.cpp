// The VCU instructions: element-wise, constant-depth (AC[0]) operations on whole vectors.
// Each one checks its operands, computes its output exactly (words) or in IEEE arithmetic
// (reals), and retires with the cost given in cost.hpp.
#include "mmvram/model/machine.hpp"

#include "word_arith.hpp"

#include <cmath>
#include <vector>

namespace mmv {

namespace {

// Exact element-wise word result f(i), computed wide and checked against B bits.
template <class F>
array<word> exact_words(const std::string& op, std::int64_t m, int bits, F f) {
  const detail::wide lo = detail::word_min(bits), hi = detail::word_max(bits);
  array<word> out(m);
  for (std::int64_t i = 0; i < m; ++i) {
    const detail::wide v = f(i);
    if (v < lo || v > hi) throw width_error(op, i, detail::to_string(v), bits);
    out[i] = static_cast<word>(v);
  }
  return out;
}

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
  array<T> out = (cond.values() != 0).select(a.values(), b);
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

// ---- data movement ----

template <class T>
vec<T> machine::shift(const vec<T>& a, std::int64_t offset, T fill) {
  require_type<T>();
  const std::int64_t m = a.size();
  array<T> out = array<T>::Constant(m, fill);
  for (std::int64_t i = std::max<std::int64_t>(0, offset); i < m && i - offset < m; ++i)
    if (i - offset >= 0) out[i] = a.values()[i - offset];
  if constexpr (std::is_same_v<T, word>) check_width("shift", out);
  return retire<T>("shift", unit::vcu, cost_of_vcu(m, m), std::move(out), {a.node_});
}

template <class T>
vec<T> machine::broadcast(T value, std::int64_t m) {
  require_type<T>();
  if (m < 0) throw model_error("broadcast: negative length " + std::to_string(m));
  array<T> out = array<T>::Constant(m, value);
  if constexpr (std::is_same_v<T, real>) detail::round_to_format(out, config_.format);
  check_width("broadcast", out);
  return retire<T>("broadcast", unit::vcu, cost_of_vcu(m, 0), std::move(out), {});
}

word_vec machine::iota(std::int64_t m, word start, word step, std::int64_t block) {
  if (m < 0 || block < 1) throw model_error("iota: need m >= 0 and block >= 1");
  array<word> out = exact_words("iota", m, word_bits(), [&](std::int64_t i) { return detail::wide(start) + detail::wide(step) * (i / block); });
  return retire<word>("iota", unit::vcu, cost_of_vcu(m, 0), std::move(out), {});
}

word_vec machine::lane_index(std::int64_t m, std::int64_t block) {
  if (m < 0 || block < 1) throw model_error("lane-index: need m >= 0 and block >= 1");
  array<word> out = exact_words("lane-index", m, word_bits(), [&](std::int64_t i) { return detail::wide(i % block); });
  return retire<word>("lane-index", unit::vcu, cost_of_vcu(m, 0), std::move(out), {});
}

template <class T>
vec<T> machine::gather(const vec<T>& a, const word_vec& idx) {
  require_type<T>();
  const std::int64_t m = idx.size();
  array<T> out(m);
  for (std::int64_t i = 0; i < m; ++i) {
    const word j = idx.values()[i];
    if (j < 0 || j >= a.size())
      throw model_error("gather: index " + std::to_string(j) + " at position " + std::to_string(i) +
                        " outside 0.." + std::to_string(a.size() - 1));
    out[i] = a.values()[j];
  }
  return retire<T>("gather", unit::vcu, cost_of_vcu(m, 2 * m), std::move(out), {a.node_, idx.node_});
}

template <class T>
vec<T> machine::gather_strided(const vec<T>& a, std::int64_t start, std::int64_t stride, std::int64_t count) {
  require_type<T>();
  if (count < 0) throw model_error("gather-strided: negative count");
  if (count > 0 && (start < 0 || start >= a.size() || start + (count - 1) * stride < 0 ||
                    start + (count - 1) * stride >= a.size()))
    throw model_error("gather-strided: addresses " + std::to_string(start) + " + k*" + std::to_string(stride) +
                      " (k < " + std::to_string(count) + ") leave 0.." + std::to_string(a.size() - 1));
  array<T> out(count);
  for (std::int64_t i = 0; i < count; ++i) out[i] = a.values()[start + i * stride];
  return retire<T>("gather-strided", unit::vcu, cost_of_vcu(count, count), std::move(out), {a.node_});
}

template <class T>
vec<T> machine::scatter(const vec<T>& dst, const word_vec& idx, const vec<T>& v) {
  require_type<T>();
  require_same_length("scatter", idx.size(), v.size());
  array<T> out = dst.values();
  std::vector<bool> written(static_cast<std::size_t>(dst.size()), false);
  for (std::int64_t i = 0; i < idx.size(); ++i) {
    const word j = idx.values()[i];
    if (j < 0 || j >= dst.size())
      throw model_error("scatter: index " + std::to_string(j) + " at position " + std::to_string(i) +
                        " outside 0.." + std::to_string(dst.size() - 1));
    if (written[static_cast<std::size_t>(j)])
      throw model_error("scatter: two writes to address " + std::to_string(j) + " (EREW)");
    written[static_cast<std::size_t>(j)] = true;
    out[j] = v.values()[i];
  }
  return retire<T>("scatter", unit::vcu, cost_of_vcu(dst.size(), dst.size() + 2 * idx.size()), std::move(out),
                   {dst.node_, idx.node_, v.node_});
}

template <class T>
vec<T> machine::compress(const vec<T>& a, const word_vec& mask, const word_vec& pos) {
  require_type<T>();
  require_same_length("compress", a.size(), mask.size());
  require_same_length("compress", a.size(), pos.size());
  require_flags("compress", mask);
  const auto count = static_cast<std::int64_t>(mask.values().sum());
  array<T> out(count);
  std::int64_t rank = 0;
  for (std::int64_t i = 0; i < a.size(); ++i) {
    if (!mask.values()[i]) continue;
    if (pos.values()[i] != rank)
      throw model_error("compress: pos[" + std::to_string(i) + "] = " + std::to_string(pos.values()[i]) +
                        " but position " + std::to_string(i) + " is set mask entry number " + std::to_string(rank));
    out[rank++] = a.values()[i];
  }
  return retire<T>("compress", unit::vcu, cost_of_vcu(count, 3 * a.size()), std::move(out),
                   {a.node_, mask.node_, pos.node_});
}

template <class T>
vec<T> machine::resize(const vec<T>& a, std::int64_t m, T fill) {
  require_type<T>();
  if (m < 0) throw model_error("resize: negative length " + std::to_string(m));
  array<T> out = array<T>::Constant(m, fill);
  const std::int64_t kept = std::min(m, a.size());
  out.head(kept) = a.values().head(kept);
  if constexpr (std::is_same_v<T, word>) check_width("resize", out);
  return retire<T>("resize", unit::vcu, cost_of_vcu(m, kept), std::move(out), {a.node_});
}

template <class T>
vec<T> machine::revspec(const vec<T>& a, const word_vec& f) {
  require_type<T>();
  require_same_length("revspec", a.size(), f.size());
  require_flags("revspec", f);
  const std::int64_t m = a.size(), s = config_.s;
  const auto &x = a.values(), &flags = f.values();
  array<T> out(m);
  for (std::int64_t block = 0; block < m; block += s) {
    std::int64_t last = -1;
    for (std::int64_t i = block; i < std::min(m, block + s); ++i) {
      if (flags[i]) last = i;
      if (last < 0 || last == block) {
        out[i] = x[i];
      } else if constexpr (std::is_same_v<T, word>) {
        out[i] = static_cast<word>(detail::wide(x[i]) - x[last - 1]);
      } else {
        out[i] = x[i] - x[last - 1];
      }
    }
  }
  if constexpr (std::is_same_v<T, word>) {
    check_width("revspec", out);
  } else {
    detail::round_to_format(out, config_.format);
  }
  return retire<T>("revspec", unit::vcu, cost_of_revspec(m, s), std::move(out), {a.node_, f.node_});
}

// ---- float-mode extensions ----

real_vec machine::mul(const real_vec& a, const real_vec& b) {
  require_type<real>();
  require_same_length("mul", a.size(), b.size());
  array<real> out = a.values() * b.values();
  detail::round_to_format(out, config_.format);
  return retire<real>("mul", unit::vcu, cost_of_vcu(a.size(), 2 * a.size()), std::move(out), {a.node_, b.node_});
}

real_vec machine::mul(const real_vec& a, real c) {
  require_type<real>();
  array<real> out = a.values() * c;
  detail::round_to_format(out, config_.format);
  return retire<real>("mul-const", unit::vcu, cost_of_vcu(a.size(), a.size()), std::move(out), {a.node_});
}

real_vec machine::div(const real_vec& a, const real_vec& b) {
  require_type<real>();
  require_same_length("div", a.size(), b.size());
  array<real> out = a.values() / b.values();
  detail::round_to_format(out, config_.format);
  return retire<real>("div", unit::vcu, cost_of_vcu(a.size(), 2 * a.size()), std::move(out), {a.node_, b.node_});
}

real_vec machine::exp(const real_vec& a) {
  require_type<real>();
  array<real> out = a.values().exp();
  detail::round_to_format(out, config_.format);
  return retire<real>("exp", unit::vcu, cost_of_vcu(a.size(), a.size()), std::move(out), {a.node_});
}

real_vec machine::log(const real_vec& a) {
  require_type<real>();
  array<real> out = a.values().log();
  detail::round_to_format(out, config_.format);
  return retire<real>("log", unit::vcu, cost_of_vcu(a.size(), a.size()), std::move(out), {a.node_});
}

real_vec machine::to_real(const word_vec& a) {
  require_type<real>();
  array<real> out = a.values().cast<real>();
  detail::round_to_format(out, config_.format);
  return retire<real>("to-real", unit::vcu, cost_of_vcu(a.size(), a.size()), std::move(out), {a.node_});
}

#define MMV_INSTANTIATE_VCU(T)                                                                     \
  template vec<T> machine::add<T>(const vec<T>&, const vec<T>&);                                  \
  template vec<T> machine::add<T>(const vec<T>&, T);                                              \
  template vec<T> machine::sub<T>(const vec<T>&, const vec<T>&);                                  \
  template vec<T> machine::sub<T>(const vec<T>&, T);                                              \
  template vec<T> machine::neg<T>(const vec<T>&);                                                 \
  template vec<T> machine::min<T>(const vec<T>&, const vec<T>&);                                  \
  template vec<T> machine::max<T>(const vec<T>&, const vec<T>&);                                  \
  template word_vec machine::compare<T>(const std::string&, const vec<T>&, const vec<T>&);        \
  template word_vec machine::compare<T>(const std::string&, const vec<T>&, T);                    \
  template vec<T> machine::select<T>(const word_vec&, const vec<T>&, const vec<T>&);              \
  template vec<T> machine::select<T>(const word_vec&, const vec<T>&, T);                          \
  template vec<T> machine::shift<T>(const vec<T>&, std::int64_t, T);                              \
  template vec<T> machine::broadcast<T>(T, std::int64_t);                                         \
  template vec<T> machine::gather<T>(const vec<T>&, const word_vec&);                             \
  template vec<T> machine::gather_strided<T>(const vec<T>&, std::int64_t, std::int64_t, std::int64_t); \
  template vec<T> machine::scatter<T>(const vec<T>&, const word_vec&, const vec<T>&);             \
  template vec<T> machine::compress<T>(const vec<T>&, const word_vec&, const word_vec&);          \
  template vec<T> machine::resize<T>(const vec<T>&, std::int64_t, T);                             \
  template vec<T> machine::revspec<T>(const vec<T>&, const word_vec&);
MMV_INSTANTIATE_VCU(word)
MMV_INSTANTIATE_VCU(real)
#undef MMV_INSTANTIATE_VCU

}  // namespace mmv
