// Applications of the segmented sum (Sobczyk, Sorrentino, Zouzias 2025, their Table 4.1):
// CSR sparse matrix-vector product = GATHER → MULT → SCD, the element-wise integer product in
// O(log_s B) steps built from weighted MMU row sums, and the n×n integer matrix product as n²
// segmented sums of n products. Docs: docs/algorithms/{spmv,integer_product,matrix_product}.md.
#pragma once
#include "mmvram/algorithms/common.hpp"

#include <cstdint>
#include <initializer_list>
#include <vector>

namespace mmv {

// A sparse matrix in compressed sparse row form: row r holds the entries
// row_ptr[r] .. row_ptr[r+1]-1 of col_idx (column of each entry) and values.
struct csr_matrix {
  std::int64_t rows = 0, cols = 0;
  std::vector<std::int64_t> row_ptr, col_idx;
  std::vector<double> values;
  std::int64_t nonzeros() const { return static_cast<std::int64_t>(col_idx.size()); }
};

// Throws model_error unless row_ptr has rows+1 entries, starts at 0, never decreases and ends at
// nonzeros(), values has one entry per column index and every column index is in [0, cols).
void validate_csr(const csr_matrix& a);

// y = A·x on a float machine: GATHER x at the column indices, MULT by the values (VCU mul),
// SCD per non-empty row, then scatter the row sums to their rows (empty rows get 0).
// x.size() must equal A.cols. O(log_s nnz + log_s rows) steps.
real_vec spmv_csr(machine& m, const csr_matrix& a, const real_vec& x);

// The same with integer words: MULT is elementwise_product (O(log_s B) steps). A's values must
// be integers that fit B bits; B must also hold the prefix sums of the products (SCD's scan).
word_vec spmv_csr(machine& m, const csr_matrix& a, const word_vec& x);

// Exact ledger counts of spmv_csr for a matrix with `rows` rows, nnz entries of which
// `nonempty_rows` rows hold at least one. product_bits = 0: the float version; otherwise the
// integer version on B = product_bits.
cost_prediction spmv_csr_predicted_cost(std::int64_t rows, std::int64_t nnz, std::int64_t nonempty_rows,
                                        int s, int product_bits = 0);

// out_i = a_i·b_i on B-bit integers, exact: −|a_i| is replicated over the B−1 bits of |b_i|,
// each copy kept where its bit is set, and the copies summed with weights 2^k by MMU row sums,
// s bits per level: ceil(log_s(B−1)) MMU levels. Raises width_error when a product does not fit
// B bits; the bit addresses n·ceil((B−1)/s)·s must fit B bits too. Equal lengths required.
word_vec elementwise_product(machine& m, const word_vec& a, const word_vec& b);

// Exact ledger counts of elementwise_product on n pairs, tile size s, word width `bits` (inputs
// loaded, i.e. at depth 0).
cost_prediction elementwise_product_predicted_cost(std::int64_t n, int s, int bits);

// C = A·B for n×n integer matrices stored row-major (a.size() = b.size() = n²): the n³
// products a_ik·b_kj laid out by gathers (entry (i, j, k) at (i·n + j)·n + k), one
// elementwise_product, one SCD with segments of length n. O(log_s B + log_s n) steps. B must hold
// n³ (addresses) and the prefix sums of all n³ products (SCD's scan). Returns C row-major.
std::vector<word> matrix_product(machine& m, const word_vec& a, const word_vec& b, std::int64_t n);

// Exact ledger counts of matrix_product for n×n matrices, tile size s, word width `bits`.
cost_prediction matrix_product_predicted_cost(std::int64_t n, int s, int bits);

namespace detail {

// elementwise_product's instructions on n pairs whose a and b are ready at depths da, db;
// returns the depth of the products.
std::int64_t elementwise_product_tally(cost_tally& t, std::int64_t n, int bits, std::int64_t da, std::int64_t db);

// scd_segmented_sum's instructions (segmented.hpp) on n values at depth dx with flags at depth
// df and `segments` segments; returns the depth of the sums. Restates scd.cpp's dependency
// structure: flags OR e0, the two MatMulScans, COMPRESS, DIFF.
std::int64_t scd_tally(cost_tally& t, std::int64_t n, std::int64_t segments, std::int64_t dx, std::int64_t df);

}  // namespace detail
}  // namespace mmv
