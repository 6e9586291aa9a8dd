// Writing the result vector and checking writes (output.hpp).
#include "output.hpp"

#include "mmvram/model/files.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <ostream>

namespace mmv::tool {

namespace {

std::string extension_of(const std::string& path) {
  const auto dot = path.rfind('.');
  return dot == std::string::npos ? std::string() : path.substr(dot + 1);
}

// Whether E holds `v` exactly (no rounding, no overflow). Decided without an out-of-range
// conversion, and for a word against the word itself: a word beyond 2^53 rounds in a double,
// and comparing it as a double with its rounded copy would call the rounding exact.
template <class E, class T>
bool holds_exactly(T v) {
  if constexpr (std::is_floating_point_v<T>) {  // a finite real
    if constexpr (std::is_floating_point_v<E>) {
      return std::fabs(v) <= static_cast<double>(std::numeric_limits<E>::max()) && static_cast<double>(static_cast<E>(v)) == v;
    } else {
      const double lo = static_cast<double>(std::numeric_limits<E>::min());  // 0 or -2^(N-1), exact
      const double hi = std::ldexp(1.0, std::numeric_limits<E>::digits);   // 2^8, 2^31, 2^63
      return v == std::trunc(v) && v >= lo && v < hi;
    }
  } else {  // a word
    if constexpr (std::is_floating_point_v<E>) {
      const E e = static_cast<E>(v);
      return e >= -0x1p63 && e < 0x1p63 && static_cast<std::int64_t>(e) == v;
    } else {
      return v >= static_cast<T>(std::numeric_limits<E>::min()) && v <= static_cast<T>(std::numeric_limits<E>::max());
    }
  }
}

// Appends the values converted to E, refusing one that E does not hold exactly.
template <class E, class T>
void append_binary(std::string& bytes, const std::vector<T>& values, const std::string& path) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!holds_exactly<E>(values[i]))
      throw io_error("cannot write '" + path + "': value " +
                     (std::is_floating_point_v<T> ? format_value(values[i], number_format::float64)
                                                  : std::to_string(values[i])) +
                     " at index " + std::to_string(i) + " does not fit ." + extension_of(path) + " exactly");
    const E e = static_cast<E>(values[i]);
    bytes.append(reinterpret_cast<const char*>(&e), sizeof e);
  }
}

template <class T>
bool binary_bytes(const std::string& path, const std::vector<T>& v, std::string& bytes) {
  const std::string ext = extension_of(path);
  if (ext == "u8") append_binary<std::uint8_t>(bytes, v, path);
  else if (ext == "i32") append_binary<std::int32_t>(bytes, v, path);
  else if (ext == "i64") append_binary<std::int64_t>(bytes, v, path);
  else if (ext == "f32") append_binary<float>(bytes, v, path);
  else if (ext == "f64") append_binary<double>(bytes, v, path);
  else return false;
  return true;
}

template <class T>
std::string text_bytes(const std::vector<T>& v, number_format format) {
  std::string text;
  for (const T x : v) text += format_value(x, format) + "\n";
  return text;
}

}  // namespace

void check_written(std::ostream& out, const std::string& what) {
  if (out) errno = 0;  // a stream that already failed keeps the errno of its failed write
  out.flush();
  if (!out) throw io_error("cannot write " + what + (errno ? std::string(": ") + std::strerror(errno) : std::string()));
}

void write_result(const std::string& path, const algorithm_outcome& o, number_format format) {
  const bool integer = format == number_format::integer;
  std::string bytes;
  const bool binary = integer ? binary_bytes(path, o.output_words, bytes) : binary_bytes(path, o.output_reals, bytes);
  if (!binary) bytes = integer ? text_bytes(o.output_words, format) : text_bytes(o.output_reals, format);
  write_output_file(path, bytes, "the output file '" + path + "'");
}

void write_output_file(const std::string& path, const std::string& bytes, const std::string& what) {
  try {
    write_whole_file(path, bytes, what);
  } catch (const model_error& e) {
    throw io_error(e.what());
  }
}

}  // namespace mmv::tool
