// CSR sparse matrix-vector product y = A·x = GATHER → MULT → SCD (docs/algorithms/spmv.md),
// plus the CSR checks, a Matrix Market reader and the BigBird-style test matrices. Phases
// (r rows, nnz entries, k non-empty rows, S(m) = MatMulScan on m values):
//   1. rows     nonempty = [row_ptr[r] < row_ptr[r+1]]; rank = SCAN(nonempty) − nonempty;
//               COMPRESS the non-empty rows' first entries and ids; scatter 1s at those
//               entries: the segment flags                               S(r) + 8 VCU
//   2. GATHER   x at the column indices                                  1 VCU
//   3. MULT     VCU mul (float) or elementwise_product (integer)         1 VCU / O(log_s B)
//   4. SCD      one sum per non-empty row (segmented.hpp)                O(log_s nnz)
//   5. scatter  the sums to their rows, 0 elsewhere                      2 VCU
#include "mmvram/algorithms/applications.hpp"

#include "mmvram/algorithms/scan.hpp"
#include "mmvram/algorithms/segmented.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <istream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

namespace mmv {

void validate_csr(const csr_matrix& a) {
  const auto fail = [](const std::string& why) { throw model_error("csr_matrix: " + why); };
  if (a.rows < 0 || a.cols < 0) fail("negative dimensions");
  if (static_cast<std::int64_t>(a.row_ptr.size()) != a.rows + 1)
    fail("row_ptr has " + std::to_string(a.row_ptr.size()) + " entries, expected rows + 1 = " + std::to_string(a.rows + 1));
  if (a.row_ptr.front() != 0) fail("row_ptr[0] is " + std::to_string(a.row_ptr.front()) + ", expected 0");
  for (std::int64_t r = 0; r < a.rows; ++r)
    if (a.row_ptr[r + 1] < a.row_ptr[r]) fail("row_ptr decreases at row " + std::to_string(r));
  if (a.row_ptr.back() != a.nonzeros() || a.values.size() != a.col_idx.size())
    fail("row_ptr ends at " + std::to_string(a.row_ptr.back()) + " but there are " + std::to_string(a.col_idx.size()) +
         " column indices and " + std::to_string(a.values.size()) + " values");
  for (std::size_t e = 0; e < a.col_idx.size(); ++e)
    if (a.col_idx[e] < 0 || a.col_idx[e] >= a.cols)
      fail("column index " + std::to_string(a.col_idx[e]) + " of entry " + std::to_string(e) + " outside 0.." +
           std::to_string(a.cols - 1));
}

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
                                             std::int64_t g, std::mt19937_64& gen) {
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
      std::swap(free[t], free[t + static_cast<std::int64_t>(gen() % (free.size() - t))]);
      used.insert(free[t]);
    }
  } else {  // sparse draw: rejection, at most half the candidates are taken
    for (std::int64_t t = 0; t < k;) t += used.insert(static_cast<std::int64_t>(gen() % nb)).second ? 1 : 0;
  }
  return {used.begin(), used.end()};
}

}  // namespace

csr_matrix bigbird_matrix(std::int64_t n, std::int64_t block, int random_blocks, int window_blocks,
                          int global_blocks, std::uint64_t seed) {
  if (block < 1 || n < 0 || n % block != 0 || random_blocks < 0 || window_blocks < 0 || global_blocks < 0)
    throw model_error("bigbird_matrix: need block >= 1, n >= 0 a multiple of block, and r, w, g >= 0");
  const std::int64_t nb = n / block;
  std::mt19937_64 gen(seed);  // raw draws only, so the pattern is the same on every platform
  csr_matrix a;
  a.rows = a.cols = n;
  a.row_ptr.push_back(0);
  for (std::int64_t i = 0; i < nb; ++i) {
    const std::vector<std::int64_t> blocks = bigbird_row_blocks(i, nb, random_blocks, window_blocks, global_blocks, gen);
    for (std::int64_t row = 0; row < block; ++row) {
      for (const std::int64_t j : blocks)
        for (std::int64_t col = j * block; col < (j + 1) * block; ++col) {
          a.col_idx.push_back(col);
          a.values.push_back(static_cast<double>(gen() >> 11) * 0x1p-52 - 1.0);
        }
      a.row_ptr.push_back(a.nonzeros());
    }
  }
  return a;
}

namespace {

template <class T>
vec<T> load_values(machine& m, const csr_matrix& a) {
  if constexpr (std::is_same_v<T, word>) {
    std::vector<word> v;
    for (const double x : a.values) {
      if (x != std::floor(x) || std::abs(x) > 0x1p62) {
        char text[32];
        std::snprintf(text, sizeof text, "%.6g", x);
        throw model_error(std::string("spmv_csr: integer SpMV needs integer matrix values below 2^62 (got ") + text + ")");
      }
      v.push_back(static_cast<word>(x));
    }
    return m.load<word>(v, "values");
  } else {
    return m.load<real>(a.values, "values");
  }
}

template <class T>
vec<T> spmv(machine& m, const csr_matrix& a, const vec<T>& x) {
  validate_csr(a);
  if (x.size() != a.cols)
    throw model_error("spmv_csr: x has " + std::to_string(x.size()) + " entries, A has " + std::to_string(a.cols) + " columns");
  auto tag = m.region("spmv");
  const std::int64_t nnz = a.nonzeros();
  if (nnz == 0) return m.broadcast(T{0}, a.rows);
  word_vec flags, row_ids;
  {  // 1. segment flags at the first entry of every non-empty row, and those rows' ids
    auto g = m.region("rows");
    const word_vec lo = m.load<word>(std::vector<word>(a.row_ptr.begin(), a.row_ptr.end() - 1), "row_ptr");
    const word_vec hi = m.load<word>(std::vector<word>(a.row_ptr.begin() + 1, a.row_ptr.end()), "row_ptr+1");
    const word_vec nonempty = m.compare("lt", lo, hi);
    const word_vec rank = m.sub(matmul_scan(m, nonempty), nonempty);
    const word_vec starts = m.compress(lo, nonempty, rank);
    row_ids = m.compress(m.iota(a.rows), nonempty, rank);
    flags = m.scatter(m.broadcast(word{0}, nnz), starts, m.broadcast(word{1}, starts.size()));
  }
  vec<T> products;
  {  // 2-3. GATHER and MULT
    auto g = m.region("gather-mult");
    const vec<T> gathered = m.gather(x, m.load<word>(a.col_idx, "col_idx"));
    if constexpr (std::is_same_v<T, word>)
      products = elementwise_product(m, gathered, load_values<word>(m, a));
    else
      products = m.mul(gathered, load_values<real>(m, a));
  }
  const vec<T> sums = scd_segmented_sum(m, products, flags);  // 4. SCD
  auto g = m.region("scatter");                                // 5. the sums to their rows
  return m.scatter(m.broadcast(T{0}, a.rows), row_ids, sums);
}

}  // namespace

real_vec spmv_csr(machine& m, const csr_matrix& a, const real_vec& x) { return spmv<real>(m, a, x); }
word_vec spmv_csr(machine& m, const csr_matrix& a, const word_vec& x) { return spmv<word>(m, a, x); }

namespace detail {

std::int64_t scd_tally(cost_tally& t, std::int64_t n, std::int64_t segments, std::int64_t dx, std::int64_t df) {
  const std::int64_t scan = matmul_scan_predicted_cost(n, t.s).depth;
  const std::int64_t compressed = std::max({dx + scan, df + 1, std::max<std::int64_t>(df, 1) + scan + 2}) + 1;
  return t.call(scd_predicted_cost(n, t.s, segments), compressed + 2);
}

}  // namespace detail

cost_prediction spmv_csr_predicted_cost(std::int64_t rows, std::int64_t nnz, std::int64_t nonempty_rows, int s,
                                        int product_bits) {
  if (rows < 0 || nnz < 0 || s < 2 || nonempty_rows < 0 || nonempty_rows > std::min(rows, nnz) ||
      (nnz > 0 && nonempty_rows < 1) || product_bits < 0 || product_bits > 64)
    throw model_error("spmv_csr_predicted_cost: need rows, nnz >= 0, 1 <= nonempty_rows <= min(rows, nnz), s >= 2");
  detail::cost_tally t{s, {}};
  t.p.formula = "S(r) + 11 VCU steps + MULT(nnz) + SCD(nnz, k), S = matmul_scan; MULT = 1 VCU step (float) or "
                "elementwise_product(nnz, B) (integer); depth D_S(nnz) + max(d, D_S(r) + 6) + 4, d = 2 (float) "
                "or elementwise_product's depth (integer); "
                "nnz = 0: 1 VCU step";
  if (nnz == 0) {
    t.vcu(rows, {0});
    return t.p;
  }
  const std::int64_t k = nonempty_rows;
  const std::int64_t nonempty = t.vcu(rows, {0});
  const std::int64_t scan = t.call(matmul_scan_predicted_cost(rows, s), nonempty + matmul_scan_predicted_cost(rows, s).depth);
  const std::int64_t rank = t.vcu(rows, {scan, nonempty});
  const std::int64_t starts = t.vcu(k, {nonempty, rank});
  const std::int64_t row_ids = t.vcu(k, {t.vcu(rows, {0}), nonempty, rank});
  const std::int64_t flags = t.vcu(nnz, {t.vcu(nnz, {0}), starts, t.vcu(k, {0})});
  const std::int64_t gathered = t.vcu(nnz, {0});
  const std::int64_t products = product_bits == 0 ? t.vcu(nnz, {gathered})
                                                  : detail::elementwise_product_tally(t, nnz, product_bits, gathered, 0);
  const std::int64_t sums = detail::scd_tally(t, nnz, k, products, flags);
  t.vcu(rows, {t.vcu(rows, {0}), row_ids, sums});
  return t.p;
}

}  // namespace mmv
