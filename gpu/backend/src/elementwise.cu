// Element-wise instructions of the cuda backend: arithmetic (words exact in 128 bits and
// width-checked, reals rounded to the format), comparisons, selection, bit logic, conversion.
#include "device_common.cuh"

namespace mmv::cuda_ops {

namespace {

template <class T>
__device__ inline bool compare_one(int k, T a, T b) {
  switch (k) {
    case 0: return a == b;
    case 1: return a != b;
    case 2: return a < b;
    case 3: return a <= b;
    case 4: return a > b;
    default: return a >= b;
  }
}

int comparison_index(op_code op) {
  const int base = static_cast<int>(op >= op_code::eq_const ? op_code::eq_const : op_code::eq);
  return static_cast<int>(op) - base;
}

}  // namespace

void binary(const context& c, op_code op, const word* a, const word* b, word* out, std::int64_t n) {
  switch (op) {
    case op_code::add: for_each(c, n, [=] __device__(std::int64_t i) { out[i] = checked(c, i, wide(a[i]) + b[i]); }); break;
    case op_code::sub: for_each(c, n, [=] __device__(std::int64_t i) { out[i] = checked(c, i, wide(a[i]) - b[i]); }); break;
    case op_code::min: for_each(c, n, [=] __device__(std::int64_t i) { out[i] = a[i] < b[i] ? a[i] : b[i]; }); break;
    case op_code::max: for_each(c, n, [=] __device__(std::int64_t i) { out[i] = a[i] > b[i] ? a[i] : b[i]; }); break;
    case op_code::logic_and: for_each(c, n, [=] __device__(std::int64_t i) { out[i] = a[i] & b[i]; }); break;
    case op_code::logic_or: for_each(c, n, [=] __device__(std::int64_t i) { out[i] = a[i] | b[i]; }); break;
    case op_code::logic_xor: for_each(c, n, [=] __device__(std::int64_t i) { out[i] = a[i] ^ b[i]; }); break;
    default: throw std::invalid_argument("cuda backend: not a binary word instruction");
  }
}

void binary(const context& c, op_code op, const real* a, const real* b, real* out, std::int64_t n) {
  switch (op) {
    case op_code::add: for_each(c, n, [=] __device__(std::int64_t i) { out[i] = rounded(c, a[i] + b[i]); }); break;
    case op_code::sub: for_each(c, n, [=] __device__(std::int64_t i) { out[i] = rounded(c, a[i] - b[i]); }); break;
    case op_code::min: for_each(c, n, [=] __device__(std::int64_t i) { out[i] = b[i] < a[i] ? b[i] : a[i]; }); break;
    case op_code::max: for_each(c, n, [=] __device__(std::int64_t i) { out[i] = a[i] < b[i] ? b[i] : a[i]; }); break;
    case op_code::mul: for_each(c, n, [=] __device__(std::int64_t i) { out[i] = rounded(c, a[i] * b[i]); }); break;
    case op_code::div: for_each(c, n, [=] __device__(std::int64_t i) { out[i] = rounded(c, a[i] / b[i]); }); break;
    default: throw std::invalid_argument("cuda backend: not a binary real instruction");
  }
}

void binary_const(const context& c, op_code op, const word* a, word k, word* out, std::int64_t n) {
  if (op == op_code::add_const) for_each(c, n, [=] __device__(std::int64_t i) { out[i] = checked(c, i, wide(a[i]) + k); });
  else if (op == op_code::sub_const) for_each(c, n, [=] __device__(std::int64_t i) { out[i] = checked(c, i, wide(a[i]) - k); });
  else throw std::invalid_argument("cuda backend: not a word instruction with a constant");
}

void binary_const(const context& c, op_code op, const real* a, real k, real* out, std::int64_t n) {
  if (op == op_code::add_const) for_each(c, n, [=] __device__(std::int64_t i) { out[i] = rounded(c, a[i] + k); });
  else if (op == op_code::sub_const) for_each(c, n, [=] __device__(std::int64_t i) { out[i] = rounded(c, a[i] - k); });
  else if (op == op_code::mul_const) for_each(c, n, [=] __device__(std::int64_t i) { out[i] = rounded(c, a[i] * k); });
  else throw std::invalid_argument("cuda backend: not a real instruction with a constant");
}

void unary(const context& c, op_code op, const word* a, word* out, std::int64_t n) {
  if (op == op_code::neg) for_each(c, n, [=] __device__(std::int64_t i) { out[i] = checked(c, i, -wide(a[i])); });
  else if (op == op_code::logic_not) for_each(c, n, [=] __device__(std::int64_t i) { out[i] = 1 - flag(c, i, a[i]); });
  else throw std::invalid_argument("cuda backend: not a unary word instruction");
}

void unary(const context& c, op_code op, const real* a, real* out, std::int64_t n) {
  if (op == op_code::neg) for_each(c, n, [=] __device__(std::int64_t i) { out[i] = -a[i]; });
  else if (op == op_code::exp) for_each(c, n, [=] __device__(std::int64_t i) { out[i] = rounded(c, ::exp(a[i])); });
  else if (op == op_code::log) for_each(c, n, [=] __device__(std::int64_t i) { out[i] = rounded(c, ::log(a[i])); });
  else throw std::invalid_argument("cuda backend: not a unary real instruction");
}

void compare(const context& c, op_code op, const word* a, const word* b, word* out, std::int64_t n) {
  const int k = comparison_index(op);
  for_each(c, n, [=] __device__(std::int64_t i) { out[i] = compare_one(k, a[i], b[i]) ? 1 : 0; });
}
void compare(const context& c, op_code op, const real* a, const real* b, word* out, std::int64_t n) {
  const int k = comparison_index(op);
  for_each(c, n, [=] __device__(std::int64_t i) { out[i] = compare_one(k, a[i], b[i]) ? 1 : 0; });
}
void compare_const(const context& c, op_code op, const word* a, word v, word* out, std::int64_t n) {
  const int k = comparison_index(op);
  for_each(c, n, [=] __device__(std::int64_t i) { out[i] = compare_one(k, a[i], v) ? 1 : 0; });
}
void compare_const(const context& c, op_code op, const real* a, real v, word* out, std::int64_t n) {
  const int k = comparison_index(op);
  for_each(c, n, [=] __device__(std::int64_t i) { out[i] = compare_one(k, a[i], v) ? 1 : 0; });
}

void select(const context& c, const word* cond, const word* a, const word* b, word* out, std::int64_t n) {
  for_each(c, n, [=] __device__(std::int64_t i) { out[i] = flag(c, i, cond[i]) ? a[i] : b[i]; });
}
void select(const context& c, const word* cond, const real* a, const real* b, real* out, std::int64_t n) {
  for_each(c, n, [=] __device__(std::int64_t i) { out[i] = flag(c, i, cond[i]) ? a[i] : b[i]; });
}
void select_const(const context& c, const word* cond, const word* a, word k, word* out, std::int64_t n) {
  for_each(c, n, [=] __device__(std::int64_t i) { out[i] = flag(c, i, cond[i]) ? a[i] : checked(c, i, k); });
}
void select_const(const context& c, const word* cond, const real* a, real k, real* out, std::int64_t n) {
  for_each(c, n, [=] __device__(std::int64_t i) { out[i] = flag(c, i, cond[i]) ? a[i] : k; });
}

void shift_bits(const context& c, op_code op, const word* a, int k, word* out, std::int64_t n) {
  if (op == op_code::shift_left_bits) for_each(c, n, [=] __device__(std::int64_t i) { out[i] = checked(c, i, wide(a[i]) * (wide(1) << k)); });
  else for_each(c, n, [=] __device__(std::int64_t i) { out[i] = a[i] >> k; });
}

void extract_bit(const context& c, const word* a, const word* k, word* out, std::int64_t n) {
  for_each(c, n, [=] __device__(std::int64_t i) {
    const word b = k[i];
    if (b < 0 || b >= c.word_bits) {
      report(c.err, bit_range, c.seq, i, b);
      out[i] = 0;
    } else {
      out[i] = (a[i] >> b) & 1;
    }
  });
}

void to_real(const context& c, const word* a, real* out, std::int64_t n) {
  for_each(c, n, [=] __device__(std::int64_t i) { out[i] = rounded(c, static_cast<real>(a[i])); });
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
