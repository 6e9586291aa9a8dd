// Writing the result vector and checking writes (output.hpp).
#include "output.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <ostream>

namespace mmv::tool {

namespace {

std::string extension_of(const std::string& path) {
  const auto dot = path.rfind('.');
  return dot == std::string::npos ? std::string() : path.substr(dot + 1);
}

// Appends the values converted to E, refusing one that E does not hold exactly.
template <class E, class T>
void append_binary(std::string& bytes, const std::vector<T>& values, const std::string& path) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    const E e = static_cast<E>(values[i]);
    const bool exact = std::is_floating_point_v<E> || std::is_floating_point_v<T>
                           ? static_cast<double>(e) == static_cast<double>(values[i])
                           : static_cast<std::int64_t>(e) == static_cast<std::int64_t>(values[i]) &&
                                 (values[i] >= 0 || std::is_signed_v<E>);
    if (!exact)
      throw io_error("cannot write '" + path + "': value " + format_value(values[i], number_format::float64) +
                     " at index " + std::to_string(i) + " does not fit ." + extension_of(path) + " exactly");
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

void write_result(const std::string& path, const algorithm_outcome& o, number_format format) {
  const bool integer = format == number_format::integer;
  std::string bytes;
  const bool binary = integer ? binary_bytes(path, o.output_words, bytes) : binary_bytes(path, o.output_reals, bytes);
  if (!binary) bytes = integer ? text_bytes(o.output_words, format) : text_bytes(o.output_reals, format);
  std::ofstream out(path, binary ? std::ios::binary | std::ios::trunc : std::ios::trunc);
  if (!out) throw io_error("cannot write the output file '" + path + "': " + std::strerror(errno));
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  check_written(out, "the output file '" + path + "'");
}

}  // namespace mmv::tool
