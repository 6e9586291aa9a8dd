#include "mmvram/model/types.hpp"

#include <cstdio>

namespace mmv {

std::string escaped(const std::string& text) {
  std::string out;
  for (const unsigned char c : text) {
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    }
  }
  return out;
}

const char* to_string(unit u) {
  switch (u) {
    case unit::scalar: return "scalar";
    case unit::vcu: return "VCU";
    case unit::mmu: return "MMU";
  }
  return "?";
}

const char* to_string(number_format f) {
  switch (f) {
    case number_format::integer: return "integer";
    case number_format::float32: return "float32";
    case number_format::float64: return "float64";
  }
  return "?";
}

number_format parse_number_format(const std::string& name) {
  if (name == "integer" || name == "int") return number_format::integer;
  if (name == "float32") return number_format::float32;
  if (name == "float64") return number_format::float64;
  throw model_error("unknown number format '" + name + "' (expected integer, float32 or float64)");
}

width_error::width_error(std::string instr, std::int64_t idx, std::string val, int bits)
    : std::overflow_error("word-width overflow: " + instr + " produced " + val + " at index " +
                          std::to_string(idx) + ", which does not fit in a " +
                          std::to_string(bits) + "-bit signed word"),
      instruction(std::move(instr)),
      index(idx),
      value(std::move(val)),
      word_bits(bits) {}

std::string detail::to_string(__int128 v) {
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

}  // namespace mmv
