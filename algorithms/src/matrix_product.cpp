// n×n integer matrix product C = A·B through segmented sums (docs/algorithms/matrix_product.md;
// the layout is ours, the O(log_s(nB)) bound the paper's). N = n³ products, entry (i, j, k) at
// position p = (i·n + j)·n + k, so the n products of C_ij form one segment:
//   1. addresses  k = p mod n; A index i·n + k; B index k·n + j, with k·n gathered from the
//                 n-entry table (0, n, 2n, ...) and j = ⌊p/n⌋ − n·⌊p/n²⌋        8 VCU
//   2. GATHER     a_ik and b_kj                                               2 VCU
//   3. MULT       elementwise_product                                         O(log_s B)
//   4. SCD        flags at k = 0, one sum per segment = C row-major           1 VCU + SCD(N)
#include "mmvram/algorithms/applications.hpp"

#include "mmvram/algorithms/segmented.hpp"

#include <string>

namespace mmv {

std::vector<word> matrix_product(machine& m, const word_vec& a, const word_vec& b, std::int64_t n) {
  if (n > (std::int64_t{1} << 20))  // n^3 products must have 64-bit addresses
    throw model_error("matrix_product: n = " + std::to_string(n) + " is too large (n^3 products; n <= 2^20)");
  if (n < 0 || a.size() != n * n || b.size() != n * n)
    throw model_error("matrix_product: A and B must hold n*n = " + std::to_string(n * n) + " entries (got " +
                      std::to_string(a.size()) + " and " + std::to_string(b.size()) + ")");
  if (n == 0) return {};
  auto tag = m.region("matrix-product");
  const std::int64_t cube = n * n * n;
  word_vec k, a_idx, b_idx;
  {  // 1. addresses of a_ik and b_kj for every (i, j, k)
    auto g = m.region("addresses");
    k = m.lane_index(cube, n);
    const word_vec i_n = m.iota(cube, 0, n, n * n);                        // i·n
    a_idx = m.add(i_n, k);                                                 // i·n + k
    const word_vec k_n = m.gather(m.iota(n, 0, n), k);                     // k·n
    const word_vec j = m.sub(m.iota(cube, 0, 1, n), i_n);                  // (i·n + j) − i·n
    b_idx = m.add(k_n, j);                                                 // k·n + j
  }
  word_vec products;
  {  // 2-3. GATHER the factors, MULT them
    auto g = m.region("gather-mult");
    const word_vec a_ik = m.gather(a, a_idx), b_kj = m.gather(b, b_idx);
    products = elementwise_product(m, a_ik, b_kj);
  }
  const word_vec starts = m.compare("eq", k, word{0});  // 4. segments of n, one per C_ij
  return m.read(scd_segmented_sum(m, products, starts));
}

cost_prediction matrix_product_predicted_cost(std::int64_t n, int s, int bits) {
  if (n < 0 || n > (std::int64_t{1} << 20) || s < 2 || bits < 2 || bits > 64)
    throw model_error("matrix_product_predicted_cost: need 0 <= n <= 2^20, s >= 2 and 2 <= bits <= 64");
  detail::cost_tally t{s, {}};
  t.p.formula = "N = n^3: 11 VCU steps (work 10N + n) + elementwise_product(N, B) + SCD(N, n^2 segments)";
  if (n == 0) return t.p;
  const std::int64_t cube = n * n * n;
  const std::int64_t k = t.vcu(cube, {0}), i_n = t.vcu(cube, {0});
  const std::int64_t a_idx = t.vcu(cube, {i_n, k});
  const std::int64_t k_n = t.vcu(cube, {t.vcu(n, {0}), k});
  const std::int64_t b_idx = t.vcu(cube, {k_n, t.vcu(cube, {t.vcu(cube, {0}), i_n})});
  const std::int64_t products =
      detail::elementwise_product_tally(t, cube, bits, t.vcu(cube, {a_idx}), t.vcu(cube, {b_idx}));
  detail::scd_tally(t, cube, n * n, products, t.vcu(cube, {k}));
  return t.p;
}

}  // namespace mmv
