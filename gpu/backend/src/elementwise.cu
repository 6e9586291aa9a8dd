// Element-wise instructions of the cuda backend: each element computed by the model's
// semantics (vcu_semantics.hpp) inside a kernel; words width-checked, reals rounded to the
// format, flags checked, with errors reported into the device error slot.
#include "device_common.cuh"

#include <stdexcept>

namespace mmv::cuda_ops {

namespace {

// Throws std::invalid_argument unless `valid` (an op of the wrong shape reached the backend).
void require_op(bool valid, const char* shape) {
  if (!valid) throw std::invalid_argument(std::string("cuda backend: not a ") + shape + " instruction");
}

}  // namespace

void binary(const context& c, op_code op, const word* a, const word* b, word* out, std::int64_t n) {
  require_op(vcu::is_binary<word>(op), "binary word");
  for_each(c, n, [=] __device__(std::int64_t i) { out[i] = checked(c, i, vcu::binary(op, a[i], b[i])); });
}

void binary(const context& c, op_code op, const real* a, const real* b, real* out, std::int64_t n) {
  require_op(vcu::is_binary<real>(op), "binary real");
  for_each(c, n, [=] __device__(std::int64_t i) { out[i] = rounded(c, vcu::binary(op, a[i], b[i])); });
}

void binary_const(const context& c, op_code op, const word* a, word k, word* out, std::int64_t n) {
  require_op(vcu::is_binary<word>(op), "word-with-constant");
  for_each(c, n, [=] __device__(std::int64_t i) { out[i] = checked(c, i, vcu::binary(op, a[i], k)); });
}

void binary_const(const context& c, op_code op, const real* a, real k, real* out, std::int64_t n) {
  require_op(vcu::is_binary<real>(op), "real-with-constant");
  for_each(c, n, [=] __device__(std::int64_t i) { out[i] = rounded(c, vcu::binary(op, a[i], k)); });
}

void unary(const context& c, op_code op, const word* a, word* out, std::int64_t n) {
  require_op(vcu::is_unary<word>(op), "unary word");
  if (op == op_code::logic_not)
    for_each(c, n, [=] __device__(std::int64_t i) { out[i] = checked(c, i, vcu::unary(op, flag(c, i, a[i]))); });
  else
    for_each(c, n, [=] __device__(std::int64_t i) { out[i] = checked(c, i, vcu::unary(op, a[i])); });
}

void unary(const context& c, op_code op, const real* a, real* out, std::int64_t n) {
  require_op(vcu::is_unary<real>(op), "unary real");
  for_each(c, n, [=] __device__(std::int64_t i) { out[i] = rounded(c, vcu::unary(op, a[i])); });
}

void compare(const context& c, op_code op, const word* a, const word* b, word* out, std::int64_t n) {
  for_each(c, n, [=] __device__(std::int64_t i) { out[i] = vcu::compare(op, a[i], b[i]); });
}
void compare(const context& c, op_code op, const real* a, const real* b, word* out, std::int64_t n) {
  for_each(c, n, [=] __device__(std::int64_t i) { out[i] = vcu::compare(op, a[i], b[i]); });
}
void compare_const(const context& c, op_code op, const word* a, word v, word* out, std::int64_t n) {
  for_each(c, n, [=] __device__(std::int64_t i) { out[i] = vcu::compare(op, a[i], v); });
}
void compare_const(const context& c, op_code op, const real* a, real v, word* out, std::int64_t n) {
  for_each(c, n, [=] __device__(std::int64_t i) { out[i] = vcu::compare(op, a[i], v); });
}

void select(const context& c, const word* cond, const word* a, const word* b, word* out, std::int64_t n) {
  for_each(c, n, [=] __device__(std::int64_t i) { out[i] = vcu::select(flag(c, i, cond[i]), a[i], b[i]); });
}
void select(const context& c, const word* cond, const real* a, const real* b, real* out, std::int64_t n) {
  for_each(c, n, [=] __device__(std::int64_t i) { out[i] = vcu::select(flag(c, i, cond[i]), a[i], b[i]); });
}
void select_const(const context& c, const word* cond, const word* a, word k, word* out, std::int64_t n) {
  for_each(c, n, [=] __device__(std::int64_t i) { out[i] = checked(c, i, vcu::select(flag(c, i, cond[i]), a[i], k)); });
}
void select_const(const context& c, const word* cond, const real* a, real k, real* out, std::int64_t n) {
  for_each(c, n, [=] __device__(std::int64_t i) { out[i] = vcu::select(flag(c, i, cond[i]), a[i], k); });
}

void shift_bits(const context& c, op_code op, const word* a, int k, word* out, std::int64_t n) {
  for_each(c, n, [=] __device__(std::int64_t i) { out[i] = checked(c, i, vcu::shift_bits(op, a[i], k)); });
}

void extract_bit(const context& c, const word* a, const word* k, word* out, std::int64_t n) {
  for_each(c, n, [=] __device__(std::int64_t i) {
    const word b = k[i];
    if (!vcu::is_bit_index(b, c.word_bits)) {
      report(c.err, bit_range, c.seq, i, b);
      out[i] = 0;
    } else {
      out[i] = vcu::extract_bit(a[i], b);
    }
  });
}

void to_real(const context& c, const word* a, real* out, std::int64_t n) {
  const bool float32 = c.float32;
  for_each(c, n, [=] __device__(std::int64_t i) { out[i] = vcu::to_real(a[i], float32); });
}

void find_nonfinite(const context& c, const real* p, std::int64_t n, nonfinite_slot* slot) {
  const auto seq = static_cast<unsigned long long>(c.seq);
  for_each(c, n, [=] __device__(std::int64_t i) {
    const real v = p[i];
    if (isfinite(v)) return;
    const unsigned long long first = atomicCAS(&slot->seq, ~0ull, seq);
    if (first != ~0ull && first != seq) return;  // an earlier instruction was first
    const unsigned long long kind = isnan(v) ? 2 : v > 0 ? 0 : 1;
    atomicMin(&slot->key, static_cast<unsigned long long>(i) * 4 + kind);
  });
}

}  // namespace mmv::cuda_ops
