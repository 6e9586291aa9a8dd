// CSR sparse matrix-vector product y = A·x = GATHER → MULT → SCD (docs/algorithms/spmv.md),
// plus the CSR checks (the Matrix Market reader and BigBird matrices are in harness/). Phases
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
#include <string>

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
