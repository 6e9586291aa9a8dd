// Device operations of the cuda backend (internal): one launcher per instruction shape, on raw
// device pointers, enqueued on the context's stream. Words are int64, reals double (rounded to
// float32 after each operation in float32 mode). Data errors are reported into the context's
// device error slot (first one wins) and the offending element is skipped, never accessed.
// Plain C++ types only, so the host backend (cuda_backend.cpp) includes it without nvcc.
#pragma once
#include "mmvram/model/op_code.hpp"

#include <cstdint>

struct CUstream_st;
struct cublasContext;

namespace mmv::cuda_ops {

// What went wrong on the device (error_slot::kind).
enum error_kind : int { no_error = 0, width = 1, index_range = 2, not_a_flag = 3, bit_range = 4 };

// The first data error of a run, written by the device.
struct error_slot {
  int kind;
  int pad;
  std::int64_t seq;    // the instruction's ledger position
  std::int64_t index;  // the element
  std::int64_t value_hi, value_lo;  // the offending value (128-bit for widths)
};

// The first non-finite real of a run: the instruction that produced one first, and the lowest
// index of one in its output with its kind (key = index * 4 + kind; kind 0: +inf, 1: -inf,
// 2: nan). All bits set: none yet.
struct nonfinite_slot {
  unsigned long long seq;
  unsigned long long key;
};

// Everything a launcher needs besides its operands.
struct context {
  CUstream_st* stream;
  cublasContext* blas;
  error_slot* err;     // device memory
  std::int64_t seq;    // current instruction
  int word_bits;
  bool float32;
  int s;
};

using word = std::int64_t;
using real = double;

// Element-wise: out[i] = op(a[i], b[i]) / op(a[i], c) / op(a[i]); compare ops give 0/1 words.
void binary(const context& c, op_code op, const word* a, const word* b, word* out, std::int64_t n);
void binary(const context& c, op_code op, const real* a, const real* b, real* out, std::int64_t n);
void binary_const(const context& c, op_code op, const word* a, word k, word* out, std::int64_t n);
void binary_const(const context& c, op_code op, const real* a, real k, real* out, std::int64_t n);
void unary(const context& c, op_code op, const word* a, word* out, std::int64_t n);
void unary(const context& c, op_code op, const real* a, real* out, std::int64_t n);
void compare(const context& c, op_code op, const word* a, const word* b, word* out, std::int64_t n);
void compare(const context& c, op_code op, const real* a, const real* b, word* out, std::int64_t n);
void compare_const(const context& c, op_code op, const word* a, word k, word* out, std::int64_t n);
void compare_const(const context& c, op_code op, const real* a, real k, word* out, std::int64_t n);
void select(const context& c, const word* cond, const word* a, const word* b, word* out, std::int64_t n);
void select(const context& c, const word* cond, const real* a, const real* b, real* out, std::int64_t n);
void select_const(const context& c, const word* cond, const word* a, word k, word* out, std::int64_t n);
void select_const(const context& c, const word* cond, const real* a, real k, real* out, std::int64_t n);
void shift_bits(const context& c, op_code op, const word* a, int k, word* out, std::int64_t n);
void extract_bit(const context& c, const word* a, const word* k, word* out, std::int64_t n);
void to_real(const context& c, const word* a, real* out, std::int64_t n);
// Records the lowest index of a non-finite value of p[0, n) in `slot`, unless an earlier
// instruction (another c.seq) already recorded one.
void find_nonfinite(const context& c, const real* p, std::int64_t n, nonfinite_slot* slot);

// Movement: shift by offset with fill; constants; index patterns.
void shift(const context& c, const word* a, std::int64_t m, std::int64_t offset, word fill, word* out);
void shift(const context& c, const real* a, std::int64_t m, std::int64_t offset, real fill, real* out);
void fill(const context& c, word value, word* out, std::int64_t m);
void fill(const context& c, real value, real* out, std::int64_t m);
void iota(const context& c, word start, word step, std::int64_t block, word* out, std::int64_t m);
void lane_index(const context& c, std::int64_t block, word* out, std::int64_t m);
// out[i] = a[idx[i]] (checked against a_size).
void gather(const context& c, const word* a, std::int64_t a_size, const word* idx, word* out, std::int64_t m);
void gather(const context& c, const real* a, std::int64_t a_size, const word* idx, real* out, std::int64_t m);
// out[i] = a[start + i*stride].
void gather_strided(const context& c, const word* a, std::int64_t start, std::int64_t stride, word* out, std::int64_t count);
void gather_strided(const context& c, const real* a, std::int64_t start, std::int64_t stride, real* out, std::int64_t count);
// out = dst; out[idx[i]] = v[i] (checked against dst_size).
void scatter(const context& c, const word* dst, std::int64_t dst_size, const word* idx, const word* v, std::int64_t m, word* out);
void scatter(const context& c, const real* dst, std::int64_t dst_size, const word* idx, const real* v, std::int64_t m, real* out);
// Number of set flags in mask (checks 0/1); waits for the device.
std::int64_t count_set(const context& c, const word* mask, std::int64_t n);
// out[pos[i]] = a[i] where mask[i] = 1 (pos checked against count).
void compress(const context& c, const word* a, const word* mask, const word* pos, std::int64_t n, word* out, std::int64_t count);
void compress(const context& c, const real* a, const word* mask, const word* pos, std::int64_t n, real* out, std::int64_t count);
// out = a truncated or padded with fill to m.
void resize(const context& c, const word* a, std::int64_t a_size, std::int64_t m, word fill, word* out);
void resize(const context& c, const real* a, std::int64_t a_size, std::int64_t m, real fill, real* out);
// REVSPEC over blocks of c.s; block prefix sums over blocks of k (f may be null).
void revspec(const context& c, const word* a, const word* f, word* out, std::int64_t m);
void revspec(const context& c, const real* a, const word* f, real* out, std::int64_t m);
void block_prefix(const context& c, const word* a, const word* f, std::int64_t k, word* out, std::int64_t m);
void block_prefix(const context& c, const real* a, const word* f, std::int64_t k, real* out, std::int64_t m);

// MMU: out (rows x s) = a (rows x s) * w (s x s), row-major, on the FP64 tensor cores through
// cuBLAS DGEMM. Words: exact; when |a| * |w| * s may reach 2^53 (bounds given by the caller)
// both operands are split into 16-bit limbs and the limb products recombined in 128 bits.
void mmu(const context& c, const word* a, double a_bound, const word* w, double w_bound, word* out, std::int64_t rows);
void mmu(const context& c, const real* a, const real* w, real* out, std::int64_t rows);

}  // namespace mmv::cuda_ops
