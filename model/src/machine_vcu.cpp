// The VCU instructions' front ends: argument checks that need no data (types, lengths, shift
// amounts, shapes), constants rounded to the format, then execution by the backend.
#include "machine_issue.hpp"

#include "word_arith.hpp"

namespace mmv {

namespace {
using z = operand_sizes;
}  // namespace

// ---- arithmetic ----

#define MMV_BINARY(fn, code, label)                                                                  \
  template <class T>                                                                                 \
  vec<T> machine::fn(const vec<T>& a, const vec<T>& b) {                                             \
    require_type<T>();                                                                               \
    require_same_length(label, a.size(), b.size());                                                  \
    return issue<T>(code, z{0, a.size(), b.size()}, {a.node_, b.node_},                              \
                    [&](backend& be) { return be.binary(code, buf(a), buf(b)); });                   \
  }
MMV_BINARY(add, op_code::add, "add")
MMV_BINARY(sub, op_code::sub, "sub")
MMV_BINARY(min, op_code::min, "min")
MMV_BINARY(max, op_code::max, "max")
#undef MMV_BINARY

template <class T>
vec<T> machine::add(const vec<T>& a, T c) {
  require_type<T>();
  c = constant("add-const", c);
  return issue<T>(op_code::add_const, z{0, a.size()}, {a.node_}, [&](backend& be) { return be.binary_const(op_code::add_const, buf(a), c); });
}

template <class T>
vec<T> machine::sub(const vec<T>& a, T c) {
  require_type<T>();
  c = constant("sub-const", c);
  return issue<T>(op_code::sub_const, z{0, a.size()}, {a.node_}, [&](backend& be) { return be.binary_const(op_code::sub_const, buf(a), c); });
}

template <class T>
vec<T> machine::neg(const vec<T>& a) {
  require_type<T>();
  return issue<T>(op_code::neg, z{0, a.size()}, {a.node_}, [&](backend& be) { return be.unary(op_code::neg, buf(a)); });
}

// ---- comparison, selection, logic ----

template <class T>
word_vec machine::compare(const std::string& op, const vec<T>& a, const vec<T>& b) {
  require_type<T>();
  const op_code code = comparison_op(op, false);
  require_same_length(op, a.size(), b.size());
  return issue<word>(code, z{0, a.size(), b.size()}, {a.node_, b.node_}, [&](backend& be) { return be.compare(code, buf(a), buf(b)); });
}

template <class T>
word_vec machine::compare(const std::string& op, const vec<T>& a, T c) {
  require_type<T>();
  const op_code code = comparison_op(op, true);
  c = constant("compare", c);
  return issue<word>(code, z{0, a.size()}, {a.node_}, [&](backend& be) { return be.compare_const(code, buf(a), c); });
}

template <class T>
vec<T> machine::select(const word_vec& cond, const vec<T>& a, const vec<T>& b) {
  require_type<T>();
  require_same_length("select", cond.size(), a.size());
  require_same_length("select", cond.size(), b.size());
  return issue<T>(op_code::select, z{0, a.size(), b.size()}, {cond.node_, a.node_, b.node_},
                  [&](backend& be) { return be.select(buf(cond), buf(a), buf(b)); });
}

template <class T>
vec<T> machine::select(const word_vec& cond, const vec<T>& a, T b) {
  require_type<T>();
  require_same_length("select", cond.size(), a.size());
  b = constant("select-const", b);
  return issue<T>(op_code::select_const, z{0, a.size()}, {cond.node_, a.node_},
                  [&](backend& be) { return be.select_const(buf(cond), buf(a), b); });
}

#define MMV_LOGIC(fn, code, label)                                                                   \
  word_vec machine::fn(const word_vec& a, const word_vec& b) {                                       \
    require_same_length(label, a.size(), b.size());                                                  \
    return issue<word>(code, z{0, a.size(), b.size()}, {a.node_, b.node_},                           \
                       [&](backend& be) { return be.binary(code, buf(a), buf(b)); });                \
  }
MMV_LOGIC(logic_and, op_code::logic_and, "and")
MMV_LOGIC(logic_or, op_code::logic_or, "or")
MMV_LOGIC(logic_xor, op_code::logic_xor, "xor")
#undef MMV_LOGIC

word_vec machine::logic_not01(const word_vec& a) {
  return issue<word>(op_code::logic_not, z{0, a.size()}, {a.node_}, [&](backend& be) { return be.unary(op_code::logic_not, buf(a)); });
}

word_vec machine::shift_left_bits(const word_vec& a, int k) {
  if (k < 0 || k >= word_bits())
    throw model_error("shl: shift " + std::to_string(k) + " outside 0.." + std::to_string(word_bits() - 1));
  return issue<word>(op_code::shift_left_bits, z{0, a.size()}, {a.node_},
                     [&](backend& be) { return be.shift_bits(op_code::shift_left_bits, buf(a), k); });
}

word_vec machine::shift_right_bits(const word_vec& a, int k) {
  if (k < 0 || k >= word_bits())
    throw model_error("shr: shift " + std::to_string(k) + " outside 0.." + std::to_string(word_bits() - 1));
  return issue<word>(op_code::shift_right_bits, z{0, a.size()}, {a.node_},
                     [&](backend& be) { return be.shift_bits(op_code::shift_right_bits, buf(a), k); });
}

word_vec machine::extract_bit(const word_vec& a, const word_vec& k) {
  require_same_length("extract-bit", a.size(), k.size());
  return issue<word>(op_code::extract_bit, z{0, a.size(), k.size()}, {a.node_, k.node_},
                     [&](backend& be) { return be.extract_bit(buf(a), buf(k)); });
}

// ---- data movement ----

template <class T>
vec<T> machine::shift(const vec<T>& a, std::int64_t offset, T fill) {
  require_type<T>();
  fill = constant("shift", fill);
  return issue<T>(op_code::shift, z{0, a.size()}, {a.node_}, [&](backend& be) { return be.shift(buf(a), offset, fill); });
}

template <class T>
vec<T> machine::broadcast(T value, std::int64_t m) {
  require_type<T>();
  if (m < 0) throw model_error("broadcast: negative length " + std::to_string(m));
  value = constant("broadcast", value);
  return issue<T>(op_code::broadcast, z{}, {}, [&](backend& be) { return be.broadcast(value, m); });
}

word_vec machine::iota(std::int64_t m, word start, word step, std::int64_t block) {
  if (m < 0 || block < 1) throw model_error("iota: need m >= 0 and block >= 1");
  return issue<word>(op_code::iota, z{}, {}, [&](backend& be) { return be.iota(m, start, step, block); });
}

word_vec machine::lane_index(std::int64_t m, std::int64_t block) {
  if (m < 0 || block < 1) throw model_error("lane-index: need m >= 0 and block >= 1");
  return issue<word>(op_code::lane_index, z{}, {}, [&](backend& be) { return be.lane_index(m, block); });
}

template <class T>
vec<T> machine::gather(const vec<T>& a, const word_vec& idx) {
  require_type<T>();
  return issue<T>(op_code::gather, z{0, a.size(), idx.size()}, {a.node_, idx.node_},
                  [&](backend& be) { return be.gather(buf(a), buf(idx)); });
}

template <class T>
vec<T> machine::gather_strided(const vec<T>& a, std::int64_t start, std::int64_t stride, std::int64_t count) {
  require_type<T>();
  if (count < 0) throw model_error("gather-strided: negative count");
  const detail::wide last = detail::wide(start) + detail::wide(count - 1) * stride;
  if (count > 0 && (start < 0 || start >= a.size() || last < 0 || last >= a.size()))
    throw model_error("gather-strided: addresses " + std::to_string(start) + " + k*" + std::to_string(stride) + " (k < " +
                      std::to_string(count) + ") leave 0.." + std::to_string(a.size() - 1));
  return issue<T>(op_code::gather_strided, z{0, a.size()}, {a.node_},
                  [&](backend& be) { return be.gather_strided(buf(a), start, stride, count); });
}

template <class T>
vec<T> machine::scatter(const vec<T>& dst, const word_vec& idx, const vec<T>& v) {
  require_type<T>();
  require_same_length("scatter", idx.size(), v.size());
  return issue<T>(op_code::scatter, z{0, dst.size(), idx.size()}, {dst.node_, idx.node_, v.node_},
                  [&](backend& be) { return be.scatter(buf(dst), buf(idx), buf(v)); });
}

template <class T>
vec<T> machine::compress(const vec<T>& a, const word_vec& mask, const word_vec& pos) {
  require_type<T>();
  require_same_length("compress", a.size(), mask.size());
  require_same_length("compress", a.size(), pos.size());
  return issue<T>(op_code::compress, z{0, a.size()}, {a.node_, mask.node_, pos.node_},
                  [&](backend& be) { return be.compress(buf(a), buf(mask), buf(pos)); });
}

template <class T>
vec<T> machine::resize(const vec<T>& a, std::int64_t m, T fill) {
  require_type<T>();
  if (m < 0) throw model_error("resize: negative length " + std::to_string(m));
  fill = constant("resize", fill);
  return issue<T>(op_code::resize, z{0, a.size()}, {a.node_}, [&](backend& be) { return be.resize(buf(a), m, fill); });
}

template <class T>
vec<T> machine::revspec(const vec<T>& a, const word_vec& f) {
  require_type<T>();
  require_same_length("revspec", a.size(), f.size());
  return issue<T>(op_code::revspec, z{0, a.size(), f.size()}, {a.node_, f.node_},
                  [&](backend& be) { return be.revspec(buf(a), buf(f)); });
}

// ---- optional iterated addition ----

namespace {
void require_iterated_addition(const char* op, std::int64_t k, std::int64_t limit) {
  if (limit == 0)
    throw model_error(std::string(op) + ": iterated addition is off on this machine (machine_config::iterated_addition_limit = 0)");
  if (k < 2 || k > limit)
    throw model_error(std::string(op) + ": block " + std::to_string(k) + " outside 2.." + std::to_string(limit) +
                      " (the machine's iterated-addition limit)");
}
}  // namespace

template <class T>
vec<T> machine::block_prefix_sum(const vec<T>& a, std::int64_t k) {
  require_type<T>();
  require_iterated_addition("block-prefix", k, config_.iterated_addition_limit);
  return issue<T>(op_code::block_prefix, z{0, a.size(), 0, 2, k}, {a.node_},
                  [&](backend& be) { return be.block_prefix(buf(a), nullptr, k); });
}

template <class T>
vec<T> machine::block_segmented_prefix_sum(const vec<T>& a, const word_vec& f, std::int64_t k) {
  require_type<T>();
  require_iterated_addition("block-seg-prefix", k, config_.iterated_addition_limit);
  require_same_length("block-seg-prefix", a.size(), f.size());
  return issue<T>(op_code::block_segmented_prefix, z{0, a.size(), f.size(), 2, k}, {a.node_, f.node_},
                  [&](backend& be) { return be.block_prefix(buf(a), &buf(f), k); });
}

// ---- float-mode extensions ----

real_vec machine::mul(const real_vec& a, const real_vec& b) {
  require_type<real>();
  require_same_length("mul", a.size(), b.size());
  return issue<real>(op_code::mul, z{0, a.size(), b.size()}, {a.node_, b.node_}, [&](backend& be) { return be.binary(op_code::mul, buf(a), buf(b)); });
}

real_vec machine::mul(const real_vec& a, real c) {
  require_type<real>();
  c = constant("mul-const", c);
  return issue<real>(op_code::mul_const, z{0, a.size()}, {a.node_}, [&](backend& be) { return be.binary_const(op_code::mul_const, buf(a), c); });
}

real_vec machine::div(const real_vec& a, const real_vec& b) {
  require_type<real>();
  require_same_length("div", a.size(), b.size());
  return issue<real>(op_code::div, z{0, a.size(), b.size()}, {a.node_, b.node_}, [&](backend& be) { return be.binary(op_code::div, buf(a), buf(b)); });
}

real_vec machine::exp(const real_vec& a) {
  require_type<real>();
  return issue<real>(op_code::exp, z{0, a.size()}, {a.node_}, [&](backend& be) { return be.unary(op_code::exp, buf(a)); });
}

real_vec machine::log(const real_vec& a) {
  require_type<real>();
  return issue<real>(op_code::log, z{0, a.size()}, {a.node_}, [&](backend& be) { return be.unary(op_code::log, buf(a)); });
}

real_vec machine::to_real(const word_vec& a) {
  require_type<real>();
  return issue<real>(op_code::to_real, z{0, a.size()}, {a.node_}, [&](backend& be) { return be.to_real(buf(a)); });
}

// ---- MMU ----

template <class T>
vec<T> machine::mmu(const vec<T>& a, const vec<T>& w) {
  require_type<T>();
  const std::int64_t s = config_.s;
  if (w.size() != s * s)
    throw model_error("mmu: weight has " + std::to_string(w.size()) + " words, expected s*s = " + std::to_string(s * s));
  if (a.size() % s != 0)
    throw model_error("mmu: operand length " + std::to_string(a.size()) + " is not a multiple of s = " + std::to_string(s) +
                      " (pad it first)");
  return issue<T>(op_code::mmu, z{0, a.size(), w.size()}, {a.node_, w.node_}, [&](backend& be) { return be.mmu(buf(a), buf(w)); });
}

#define MMV_INSTANTIATE_FRONT(T)                                                                  \
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
  template vec<T> machine::revspec<T>(const vec<T>&, const word_vec&);                            \
  template vec<T> machine::block_prefix_sum<T>(const vec<T>&, std::int64_t);                      \
  template vec<T> machine::block_segmented_prefix_sum<T>(const vec<T>&, const word_vec&, std::int64_t); \
  template vec<T> machine::mmu<T>(const vec<T>&, const vec<T>&);
MMV_INSTANTIATE_FRONT(word)
MMV_INSTANTIATE_FRONT(real)
#undef MMV_INSTANTIATE_FRONT

}  // namespace mmv
