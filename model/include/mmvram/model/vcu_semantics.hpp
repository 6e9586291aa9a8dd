// The per-element semantics of the VCU's instructions, written once for every backend: the
// simulate backend calls these functions on the CPU, the cuda backend inside its kernels. Words
// are computed exactly in 128 bits; the caller tests the result with `fits` and raises a width
// error where it does not fit (the machine never wraps or saturates). Reals are computed in
// double; the caller rounds the result to the machine's format with `rounded`. REVSPEC's element
// checks or rounds itself and returns a `held_element`; its caller raises only the error. No
// exceptions, no allocation: nvcc compiles the same functions for the device (MMV_HOST_DEVICE).
#pragma once
#include "mmvram/model/op_code.hpp"

#include <math.h>

#include <cstdint>
#include <type_traits>

#if defined(__CUDACC__)
#define MMV_HOST_DEVICE __host__ __device__
#else
#define MMV_HOST_DEVICE
#endif

namespace mmv::vcu {

using word = std::int64_t;
using real = double;
using wide = __int128;

// The smallest and largest B-bit word (2 <= B <= 64), in 128 bits.
MMV_HOST_DEVICE constexpr wide word_lo(int bits) { return -(wide(1) << (bits - 1)); }
MMV_HOST_DEVICE constexpr wide word_hi(int bits) { return (wide(1) << (bits - 1)) - 1; }

// Whether the exact result v is a B-bit word; where it is not, the instruction is a width error.
MMV_HOST_DEVICE constexpr bool fits(wide v, int bits) { return v >= word_lo(bits) && v <= word_hi(bits); }

// Whether f is a flag or mask entry (0 or 1); any other value is an error of the instruction.
MMV_HOST_DEVICE constexpr bool is_flag(word f) { return f == 0 || f == 1; }

// v as the machine holds a real: rounded to float32 in float32 mode, else unchanged.
MMV_HOST_DEVICE constexpr real rounded(real v, bool float32) { return float32 ? static_cast<real>(static_cast<float>(v)) : v; }

// Whether op is an instruction of `binary` (two vectors or a vector and a constant) or of
// `unary` on element type T; backends reject any other op before executing.
template <class T>
constexpr bool is_binary(op_code op) {
  switch (op) {
    case op_code::add: case op_code::add_const: case op_code::sub: case op_code::sub_const:
    case op_code::min: case op_code::max: return true;
    case op_code::logic_and: case op_code::logic_or: case op_code::logic_xor: return std::is_same_v<T, word>;
    case op_code::mul: case op_code::mul_const: case op_code::div: return std::is_same_v<T, real>;
    default: return false;
  }
}
template <class T>
constexpr bool is_unary(op_code op) {
  if (op == op_code::neg) return true;
  if (op == op_code::logic_not) return std::is_same_v<T, word>;
  return (op == op_code::exp || op == op_code::log) && std::is_same_v<T, real>;
}

// add sub min max and or xor (vector or constant second operand) on words, exact. Callers
// check is_binary<word>(op) first; any other op gives 0.
MMV_HOST_DEVICE constexpr wide binary(op_code op, word a, word b) {
  switch (op) {
    case op_code::add: case op_code::add_const: return wide(a) + b;
    case op_code::sub: case op_code::sub_const: return wide(a) - b;
    case op_code::min: return b < a ? b : a;
    case op_code::max: return a < b ? b : a;
    case op_code::logic_and: return a & b;
    case op_code::logic_or: return a | b;
    case op_code::logic_xor: return a ^ b;
    default: return 0;
  }
}

// add sub min max mul div (vector or constant second operand) on reals, before rounding. A NaN
// operand of min or max: the result is a (std::min's and std::max's rule). Callers check
// is_binary<real>(op) first; any other op gives 0.
MMV_HOST_DEVICE constexpr real binary(op_code op, real a, real b) {
  switch (op) {
    case op_code::add: case op_code::add_const: return a + b;
    case op_code::sub: case op_code::sub_const: return a - b;
    case op_code::min: return b < a ? b : a;
    case op_code::max: return a < b ? b : a;
    case op_code::mul: case op_code::mul_const: return a * b;
    case op_code::div: return a / b;
    default: return 0;
  }
}

// neg, exact, and not of a flag (the caller checks is_flag) on words.
MMV_HOST_DEVICE constexpr wide unary(op_code op, word a) { return op == op_code::neg ? -wide(a) : wide(1 - a); }

// neg exp log on reals, before rounding (exp underflows to 0 exactly).
MMV_HOST_DEVICE inline real unary(op_code op, real a) {
  if (op == op_code::exp) return ::exp(a);
  if (op == op_code::log) return ::log(a);
  return -a;
}

// The comparison of op (eq..ge or their -const forms) on one pair.
template <class T>
MMV_HOST_DEVICE constexpr bool compare(op_code op, T a, T b) {
  const int k = static_cast<int>(op) - static_cast<int>(op >= op_code::eq_const ? op_code::eq_const : op_code::eq);
  switch (k) {
    case 0: return a == b;
    case 1: return a != b;
    case 2: return a < b;
    case 3: return a <= b;
    case 4: return a > b;
    default: return a >= b;
  }
}

// select: a where the flag is set, else b (the caller checks is_flag).
template <class T>
MMV_HOST_DEVICE constexpr T select(word flag, T a, T b) { return flag != 0 ? a : b; }

// shl (exact: a * 2^k) or shr (arithmetic) by k bits, 0 <= k < 64.
MMV_HOST_DEVICE constexpr wide shift_bits(op_code op, word a, int k) {
  return op == op_code::shift_left_bits ? wide(a) * (wide(1) << k) : wide(a >> k);
}

// Whether k names a bit of a B-bit word, and that bit of a (extract-bit).
MMV_HOST_DEVICE constexpr bool is_bit_index(word k, int bits) { return k >= 0 && k < bits; }
MMV_HOST_DEVICE constexpr word extract_bit(word a, word k) { return (a >> k) & 1; }

// iota's element i: start + step * (i / block), exact; lane-index's: i % block.
MMV_HOST_DEVICE constexpr wide iota(word start, word step, std::int64_t block, std::int64_t i) {
  return wide(start) + wide(step) * (i / block);
}
MMV_HOST_DEVICE constexpr wide lane_index(std::int64_t block, std::int64_t i) { return wide(i % block); }

// to-real: the word as a real of the machine's format.
MMV_HOST_DEVICE constexpr real to_real(word a, bool float32) { return rounded(static_cast<real>(a), float32); }

// The block prefix's element i: a[from] + ... + a[i], added in index order (from: the start of
// i's block, or the last set flag of the block at or before i). Words: exact in 128 bits; reals:
// in double, unrounded.
template <class T>
MMV_HOST_DEVICE constexpr std::conditional_t<std::is_same_v<T, word>, wide, real> prefix_sum(const T* a, std::int64_t from,
                                                                                                std::int64_t i) {
  std::conditional_t<std::is_same_v<T, word>, wide, real> sum = 0;
  for (std::int64_t j = from; j <= i; ++j) sum += a[j];
  return sum;
}

// One element of an instruction's result as the machine holds it: for words, `fits` false (and
// value 0) where the exact result, kept in `exact`, is not a B-bit word (the caller raises the
// width error); for reals, `value` rounded to the machine's format (fits true, exact 0).
template <class T>
struct held_element {
  T value;
  bool fits;
  wide exact;
};

// REVSPEC's element i (docs/model.md): `last` is the last set flag in [block, i] (block: the
// start of i's block), or -1 where there is none. Past the block's start the element is
// a[i] - a[last - 1], width-checked against B bits (words) or rounded (reals; float32: the
// machine's format is float32). Otherwise it passes through as a[i], neither checked nor
// rounded: the machine holds only B-bit words and reals of its format (every load and every
// instruction checks or rounds), so a[i] already is one.
template <class T>
MMV_HOST_DEVICE constexpr held_element<T> revspec(const T* a, std::int64_t block, std::int64_t last, std::int64_t i,
                                                  int bits, bool float32) {
  if (last <= block) return {a[i], true, 0};
  const auto d = binary(op_code::sub, a[i], a[last - 1]);
  if constexpr (std::is_same_v<T, word>) return {fits(d, bits) ? static_cast<word>(d) : 0, fits(d, bits), d};
  else return {rounded(d, float32), true, 0};
}

}  // namespace mmv::vcu
