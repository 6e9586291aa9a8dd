// The sparse matrices the tool runs SpMV on: a Matrix Market reader, the BigBird-style
// sparse-attention pattern, power-law and banded matrices (sparse_inputs.hpp). Host code: nothing here touches the machine.
#include "mmvram/harness/sparse_inputs.hpp"

#include "mmvram/harness/random_inputs.hpp"

#include <algorithm>
#include <cmath>
#include <istream>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

namespace mmv {

csr_matrix read_matrix_market(std::istream& in) {
  std::int64_t line_no = 0;
  std::string line;
  const auto fail = [&](const std::string& why) { throw model_error("Matrix Market line " + std::to_string(line_no) + ": " + why); };
  const auto next_line = [&]() {  // the next line that is neither blank nor a % comment
    while (std::getline(in, line)) {
      ++line_no;
      if (line.find_first_not_of(" \t\r") != std::string::npos && line[line.find_first_not_of(" \t\r")] != '%') return true;
    }
    return false;
  };
  if (!std::getline(in, line)) fail("empty input");
  ++line_no;
  std::istringstream banner(line);
  std::string tag, object, format, field, symmetry;
  banner >> tag >> object >> format >> field >> symmetry;
  for (std::string* w : {&object, &format, &field, &symmetry})
    std::transform(w->begin(), w->end(), w->begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (tag != "%%MatrixMarket" || object != "matrix") fail("expected the banner '%%MatrixMarket matrix ...'");
  if (format != "coordinate") fail("only the coordinate format is supported (got '" + format + "')");
  if (field != "real" && field != "integer" && field != "pattern") fail("unsupported field '" + field + "'");
  if (symmetry != "general" && symmetry != "symmetric") fail("unsupported symmetry '" + symmetry + "'");
  csr_matrix a;
  std::int64_t declared = -1;
  std::string extra;
  if (!next_line()) fail("missing the size line");
  std::istringstream size(line);
  if (!(size >> a.rows >> a.cols >> declared) || (size >> extra) || a.rows < 0 || a.cols < 0 || declared < 0)
    fail("expected 'rows cols entries' (three non-negative integers)");
  if (symmetry == "symmetric" && a.rows != a.cols) fail("a symmetric matrix must be square");
  std::vector<std::tuple<std::int64_t, std::int64_t, double>> entries;
  for (std::int64_t e = 0; e < declared; ++e) {
    if (!next_line()) fail("expected " + std::to_string(declared) + " entries, found " + std::to_string(e));
    std::istringstream fields(line);
    std::int64_t i = 0, j = 0;
    double v = 1.0;
    if (!(fields >> i >> j) || (field != "pattern" && !(fields >> v)) || (fields >> extra))
      fail(field == "pattern" ? "expected 'row column'" : "expected 'row column value'");
    if (i < 1 || i > a.rows || j < 1 || j > a.cols) fail("entry (" + std::to_string(i) + ", " + std::to_string(j) + ") outside the matrix");
    if (field == "integer" && v != std::floor(v)) fail("non-integer value in an integer matrix");
    if (symmetry == "symmetric" && j > i) fail("a symmetric file stores the lower triangle only");
    entries.emplace_back(i - 1, j - 1, v);
    if (symmetry == "symmetric" && i != j) entries.emplace_back(j - 1, i - 1, v);
  }
  if (next_line()) fail("more entries than the " + std::to_string(declared) + " declared");
  std::stable_sort(entries.begin(), entries.end(), [](const auto& x, const auto& y) {
    return std::tie(std::get<0>(x), std::get<1>(x)) < std::tie(std::get<0>(y), std::get<1>(y));
  });
  a.row_ptr.assign(static_cast<std::size_t>(a.rows + 1), 0);
  for (const auto& [i, j, v] : entries) {
    ++a.row_ptr[static_cast<std::size_t>(i + 1)];
    a.col_idx.push_back(j);
    a.values.push_back(v);
  }
  for (std::int64_t r = 0; r < a.rows; ++r) a.row_ptr[r + 1] += a.row_ptr[r];
  return a;
}

namespace {

// The sorted block columns of BigBird block row i: all nb for a global row (i < g), else the
// window, the g global columns and min(r, room) distinct random others. O(w + g + r) per row
// unless the random blocks fill most of the row's room, when the free blocks are listed.
std::vector<std::int64_t> bigbird_row_blocks(std::int64_t i, std::int64_t nb, std::int64_t r, std::int64_t w,
                                             std::int64_t g, inputs::stream& d) {
  std::vector<std::int64_t> all;
  if (i < g) {
    for (std::int64_t j = 0; j < nb; ++j) all.push_back(j);
    return all;
  }
  std::set<std::int64_t> used;
  for (std::int64_t j = std::max<std::int64_t>(0, i - (w - 1) / 2); w > 0 && j <= std::min(nb - 1, i + w / 2); ++j)
    used.insert(j);
  for (std::int64_t j = 0; j < std::min(g, nb); ++j) used.insert(j);
  const std::int64_t room = nb - static_cast<std::int64_t>(used.size()), k = std::min(r, room);
  if (2 * k > room) {  // dense draw: partial Fisher–Yates over the free blocks
    std::vector<std::int64_t> free;
    for (std::int64_t j = 0; j < nb; ++j)
      if (!used.count(j)) free.push_back(j);
    for (std::int64_t t = 0; t < k; ++t) {
      std::swap(free[t], free[d.integer(t, static_cast<std::int64_t>(free.size()) - 1)]);
      used.insert(free[t]);
    }
  } else {  // sparse draw: rejection, at most half the candidates are taken
    for (std::int64_t t = 0; t < k;) t += used.insert(d.integer(0, nb - 1)).second ? 1 : 0;
  }
  return {used.begin(), used.end()};
}

}  // namespace

csr_matrix bigbird_matrix(std::int64_t n, std::int64_t block, int random_blocks, int window_blocks,
                          int global_blocks, std::uint64_t seed) {
  if (block < 1 || n < 0 || n % block != 0 || random_blocks < 0 || window_blocks < 0 || global_blocks < 0)
    throw model_error("bigbird_matrix: need block >= 1, n >= 0 a multiple of block, and r, w, g >= 0");
  const std::int64_t nb = n / block;
  inputs::stream d(inputs::mix64(seed ^ 0x62696762697264ull));  // its own stream, keyed by the seed
  csr_matrix a;
  a.rows = a.cols = n;
  a.row_ptr.push_back(0);
  for (std::int64_t i = 0; i < nb; ++i) {
    const std::vector<std::int64_t> blocks = bigbird_row_blocks(i, nb, random_blocks, window_blocks, global_blocks, d);
    for (std::int64_t row = 0; row < block; ++row) {
      for (const std::int64_t j : blocks)
        for (std::int64_t col = j * block; col < (j + 1) * block; ++col) {
          a.col_idx.push_back(col);
          a.values.push_back(2 * d.unit() - 1);
        }
      a.row_ptr.push_back(a.nonzeros());
    }
  }
  return a;
}

std::vector<std::int64_t> pareto_row_lengths(std::int64_t rows, double mean, double alpha, std::int64_t max_length,
                                             inputs::stream& d) {
  if (rows < 0 || !(mean > 0) || !(alpha > 1) || max_length < 0)
    throw model_error("pareto_row_lengths: need rows >= 0, mean > 0, alpha > 1 and max_length >= 0");
  const double x_min = mean * (alpha - 1) / alpha;
  std::vector<std::int64_t> lengths(static_cast<std::size_t>(rows));
  for (auto& len : lengths) {
    const double x = x_min / std::pow(1.0 - d.unit(), 1.0 / alpha);
    len = x >= double(max_length) ? max_length : static_cast<std::int64_t>(x);
  }
  return lengths;
}

csr_matrix matrix_of_row_lengths(const std::vector<std::int64_t>& lengths, std::int64_t cols, inputs::stream& d) {
  csr_matrix a;
  a.rows = static_cast<std::int64_t>(lengths.size());
  a.cols = cols;
  a.row_ptr.reserve(lengths.size() + 1);
  a.row_ptr.push_back(0);
  for (const std::int64_t len : lengths) {
    if (len < 0 || (len > 0 && cols < 1)) throw model_error("matrix_of_row_lengths: need lengths >= 0 and cols >= 1");
    a.row_ptr.push_back(a.row_ptr.back() + len);
  }
  a.col_idx.resize(static_cast<std::size_t>(a.row_ptr.back()));
  a.values.resize(a.col_idx.size());
  for (std::int64_t r = 0; r < a.rows; ++r) {
    const auto b = a.col_idx.begin() + a.row_ptr[r], e = a.col_idx.begin() + a.row_ptr[r + 1];
    for (auto it = b; it != e; ++it) *it = d.integer(0, cols - 1);
    std::sort(b, e);
    for (std::int64_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) a.values[static_cast<std::size_t>(k)] = 2 * d.unit() - 1;
  }
  return a;
}

csr_matrix power_law_matrix(std::int64_t rows, std::int64_t cols, double mean, double alpha, std::uint64_t seed) {
  if (cols < 1) throw model_error("power_law_matrix: need cols >= 1");
  inputs::stream d(inputs::mix64(seed ^ 0x70617265746fULL));  // its own stream, keyed by the seed
  return matrix_of_row_lengths(pareto_row_lengths(rows, mean, alpha, cols, d), cols, d);
}

csr_matrix banded_matrix(std::int64_t n, std::int64_t half_width, std::uint64_t seed) {
  if (n < 0 || half_width < 0) throw model_error("banded_matrix: need n >= 0 and half_width >= 0");
  inputs::stream d(inputs::mix64(seed ^ 0x62616e646564ULL));
  csr_matrix a;
  a.rows = a.cols = n;
  a.row_ptr.push_back(0);
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = std::max<std::int64_t>(0, i - half_width); j <= std::min(n - 1, i + half_width); ++j) {
      a.col_idx.push_back(j);
      a.values.push_back(2 * d.unit() - 1);
    }
    a.row_ptr.push_back(a.nonzeros());
  }
  return a;
}

}  // namespace mmv
