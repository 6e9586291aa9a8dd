// Host-side helpers of the machine's word and real arithmetic (internal): the element
// semantics themselves are vcu_semantics.hpp's.
#pragma once
#include "mmvram/model/types.hpp"
#include "mmvram/model/vcu_semantics.hpp"

#include <string>

namespace mmv::detail {

using vcu::wide;

// The smallest and largest B-bit word.
inline word word_min(int bits) { return static_cast<word>(vcu::word_lo(bits)); }
inline word word_max(int bits) { return static_cast<word>(vcu::word_hi(bits)); }

// Rounds every element to float32 in float32 mode (exact for +, -, * of float32 inputs,
// since double holds more than twice float32's significand).
inline void round_to_format(array<real>& a, number_format f) {
  if (f == number_format::float32) a = a.unaryExpr([](real v) { return vcu::rounded(v, true); });
}

// A scalar-unit constant as the machine holds it: float32-rounded in float32 mode.
template <class T>
inline T round_constant(T c, number_format f) {
  if constexpr (std::is_same_v<T, real>) return vcu::rounded(c, f == number_format::float32);
  else return c;
}

// Exact element-wise word result f(i), computed wide and checked against B bits.
template <class F>
inline array<word> exact_words(const std::string& op, std::int64_t m, int bits, F f) {
  array<word> out(m);
  for (std::int64_t i = 0; i < m; ++i) {
    const wide v = f(i);
    if (!vcu::fits(v, bits)) throw width_error(op, i, to_string(v), bits);
    out[i] = static_cast<word>(v);
  }
  return out;
}

}  // namespace mmv::detail
