// Readers of the input files: text or binary vectors and Matrix Market matrices. Every
// problem (missing file, a token that is not a number, a truncated binary file) is one
// usage_error naming the file and the position.
#include "inputs.hpp"

#include "memory.hpp"

#include "mmvram/harness/sparse_inputs.hpp"
#include "mmvram/model/files.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace mmv::tool {

namespace {

std::string extension_of(const std::string& path) {
  const auto dot = path.rfind('.');
  return dot == std::string::npos ? std::string() : path.substr(dot + 1);
}

// The bytes of the input file `path` (`what`: "values", "matrix", ...): a regular file, opened
// without blocking (a FIFO or a device is refused before anything is read), of at most the
// memory this process may use.
std::string contents(const std::string& path, const std::string& what) {
  try {
    return read_regular_file(path, what + " file", static_cast<std::uint64_t>(available_memory()));
  } catch (const model_error& e) {
    throw usage_error(e.what());
  }
}

// An integer token beyond 2^53 (which a double would round), or nothing.
bool inexact_integer(const std::string& token) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
  if (ec == std::errc::result_out_of_range) return true;
  return ec == std::errc() && end == token.data() + token.size() && (v > (std::int64_t{1} << 53) || v < -(std::int64_t{1} << 53));
}

template <class E, class T>
std::vector<T> decode(const std::string& bytes, const std::string& path, const std::string& what) {
  if (bytes.size() % sizeof(E) != 0)
    throw usage_error(what + " file '" + path + "': " + std::to_string(bytes.size()) +
                      " bytes is not a whole number of " + std::to_string(sizeof(E)) + "-byte elements");
  std::vector<T> out(bytes.size() / sizeof(E));
  for (std::size_t i = 0; i < out.size(); ++i) {
    E e;
    std::memcpy(&e, bytes.data() + i * sizeof(E), sizeof(E));
    if constexpr (std::is_floating_point_v<E>) {
      if (!std::isfinite(e))
        throw usage_error(what + " file '" + path + "': element " + std::to_string(i) + " is not finite (" +
                          (std::isnan(e) ? "nan" : e > 0 ? "inf" : "-inf") + ")");
    }
    out[i] = static_cast<T>(e);
  }
  return out;
}

// Raw little-endian elements, typed by the extension; false when the name is not binary.
template <class T>
bool read_binary(const std::string& path, const std::string& what, std::vector<T>& out) {
  const std::string ext = extension_of(path);
  if (ext != "u8" && ext != "i32" && ext != "i64" && ext != "f32" && ext != "f64") return false;
  if constexpr (std::is_same_v<T, word>) {
    if (ext == "f32" || ext == "f64")
      throw usage_error(what + " file '" + path + "' holds floats but this run needs integers");
  }
  const std::string bytes = contents(path, what);
  if (ext == "u8") out = decode<std::uint8_t, T>(bytes, path, what);
  if (ext == "i32") out = decode<std::int32_t, T>(bytes, path, what);
  if (ext == "i64") out = decode<std::int64_t, T>(bytes, path, what);
  if (ext == "f32") out = decode<float, T>(bytes, path, what);
  if (ext == "f64") out = decode<double, T>(bytes, path, what);
  return true;
}

template <class T>
std::vector<T> read_text(const std::string& path, const std::string& what) {
  std::istringstream in(contents(path, what));
  std::vector<T> out;
  std::string line;
  for (int line_no = 1; std::getline(in, line); ++line_no) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    for (char& c : line)
      if (c == ',' || c == ';' || c == '\t' || c == '\r') c = ' ';
    std::istringstream tokens(line);
    for (std::string token; tokens >> token;) {
      const auto bad = [&](const std::string& why) {
        return usage_error(what + " file '" + path + "', line " + std::to_string(line_no) + ": '" + token +
                           "' " + why);
      };
      std::size_t used = 0;
      try {
        if constexpr (std::is_same_v<T, word>) {
          out.push_back(std::stoll(token, &used));
        } else {  // strtod, not stod: an underflow (1e-310) is a subnormal or 0, not "out of range"
          char* end = nullptr;
          out.push_back(std::strtod(token.c_str(), &end));
          used = static_cast<std::size_t>(end - token.c_str());
        }
      } catch (const std::out_of_range&) {
        throw bad("is out of range");
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != token.size() || used == 0)
        throw bad(std::is_same_v<T, word> ? "is not an integer" : "is not a number");
      if constexpr (std::is_same_v<T, real>) {
        if (!std::isfinite(out.back())) throw bad("is not finite");
      }
    }
  }
  return out;
}

template <class T>
std::vector<T> read_vector(const std::string& path, const std::string& what) {
  std::vector<T> out;
  if (!read_binary<T>(path, what, out)) out = read_text<T>(path, what);
  if (out.empty()) throw usage_error(what + " file '" + path + "' holds no values");
  return out;
}

// Checks a Matrix Market file ahead of the parser (which allocates rows + 1 row pointers and
// every entry, and a run a dense vector of cols words): sides above 2^28, more entries than
// the file's bytes hold (each takes at least 4: "1 1\n"), a run beyond the machine's memory,
// and integer entries the parser's doubles would round. A malformed file is left to the
// parser. Rewinds `in`, which holds the file's `bytes` bytes.
void check_matrix_file(std::istream& in, const std::string& path, std::int64_t bytes, int elements_per_entry) {
  constexpr std::int64_t limit = std::int64_t{1} << 28;
  const auto fail = [&](const std::string& why) { return usage_error("matrix file '" + path + "': " + why); };
  std::string banner, line;
  std::getline(in, banner);
  std::transform(banner.begin(), banner.end(), banner.begin(), [](unsigned char c) { return std::tolower(c); });
  const bool symmetric = banner.find("symmetric") != std::string::npos;
  std::int64_t entry = -1;  // -1 until the size line is read
  while (std::getline(in, line)) {
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '%') continue;
    std::istringstream fields(line);
    if (entry >= 0) {
      std::string i, j, v;
      if (fields >> i >> j >> v && inexact_integer(v))
        throw fail("entry " + std::to_string(entry) + " (" + v + ") is an integer beyond 2^53, which mmvram's "
                   "matrices (doubles) cannot hold exactly");
      ++entry;
      continue;
    }
    std::int64_t rows = 0, cols = 0, declared = 0;
    if (!(fields >> rows >> cols >> declared)) break;
    if (rows > limit || cols > limit)
      throw fail(std::to_string(rows) + " x " + std::to_string(cols) +
                 " is too large (mmvram reads matrices of at most 2^28 rows and 2^28 columns)");
    if (declared > bytes / 4)
      throw fail("declares " + std::to_string(declared) + " entries, more than its " + std::to_string(bytes) +
                 " bytes can hold");
    require_memory(static_cast<double>(declared) * (symmetric ? 2 : 1) * elements_per_entry +
                       static_cast<double>(rows) + static_cast<double>(cols),
                   "matrix file '" + path + "' (" + std::to_string(rows) + " x " + std::to_string(cols) + ", " +
                       std::to_string(declared) + " entries)");
    entry = 0;
  }
  in.clear();
  in.seekg(0);
}

}  // namespace

std::vector<word> read_words(const std::string& path, const std::string& what) {
  return read_vector<word>(path, what);
}

std::vector<real> read_reals(const std::string& path, const std::string& what) {
  return read_vector<real>(path, what);
}

csr_matrix read_matrix_file(const std::string& path, int elements_per_entry) {
  const std::string text = contents(path, "matrix");
  std::istringstream in(text);
  check_matrix_file(in, path, static_cast<std::int64_t>(text.size()), elements_per_entry);
  try {
    return read_matrix_market(in);
  } catch (const model_error& e) {
    throw usage_error("matrix file '" + path + "': " + e.what());
  }
}

}  // namespace mmv::tool
