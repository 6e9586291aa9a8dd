// Exact word arithmetic helpers shared by the instruction implementations (internal).
#pragma once
#include "mmvram/model/types.hpp"

#include <string>

namespace mmv::detail {

using wide = __int128;

inline word word_min(int bits) { return bits == 64 ? INT64_MIN : -(word{1} << (bits - 1)); }
inline word word_max(int bits) { return bits == 64 ? INT64_MAX : (word{1} << (bits - 1)) - 1; }

inline std::string to_string(wide v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  std::string digits;
  while (v != 0) {
    const int d = static_cast<int>(v % 10);
    digits.insert(digits.begin(), static_cast<char>('0' + (d < 0 ? -d : d)));
    v /= 10;
  }
  return negative ? "-" + digits : digits;
}

// Rounds every element to float32 in float32 mode (exact for +, -, * of float32 inputs,
// since double holds more than twice float32's significand).
inline void round_to_format(array<real>& a, number_format f) {
  if (f == number_format::float32) a = a.cast<float>().cast<real>();
}

// A scalar-unit constant as the machine holds it: float32-rounded in float32 mode.
template <class T>
inline T round_constant(T c, number_format f) {
  if constexpr (std::is_same_v<T, real>)
    if (f == number_format::float32) return static_cast<real>(static_cast<float>(c));
  return c;
}

// Exact element-wise word result f(i), computed wide and checked against B bits.
template <class F>
inline array<word> exact_words(const std::string& op, std::int64_t m, int bits, F f) {
  const wide lo = word_min(bits), hi = word_max(bits);
  array<word> out(m);
  for (std::int64_t i = 0; i < m; ++i) {
    const wide v = f(i);
    if (v < lo || v > hi) throw width_error(op, i, to_string(v), bits);
    out[i] = static_cast<word>(v);
  }
  return out;
}

}  // namespace mmv::detail
