// SSCR = REVERT o COMPRESS o (SCAN x, SCAN f): the segmented scan from a speculative
// (unsegmented) MatMulScan. Phases 1-4 are SCD's (scd.cpp): flags, scan-x, scan-f, compress,
// giving w[j] = x_hat at the end of segment j and segment[i] = f_hat[i] - 1. Then
//   5 revert  before = shift(w, 1, 0)            (before[j] = x_hat at the end of segment j-1)
//             out = x_hat - gather(before, segment)   3 VCU steps, work k + 2n
#include "mmvram/algorithms/segmented.hpp"

#include "mmvram/algorithms/scan.hpp"

namespace mmv {

template <class T>
vec<T> sscr_segmented_scan(machine& m, const vec<T>& x, const word_vec& f) {
  auto g = m.region("sscr");
  if (x.size() == 0 && f.size() == 0) return vec<T>();
  const auto spec = detail::speculate_and_compress(m, x, f, "sscr_segmented_scan");
  // Phase 5: REVERT. Position i of segment j over-counts by x_hat at the end of segment j-1.
  auto h = m.region("revert");
  const vec<T> before = m.shift(spec.ends, 1, T{0});
  return m.sub(spec.x_hat, m.gather(before, spec.segment));
}

template vec<word> sscr_segmented_scan(machine&, const vec<word>&, const word_vec&);
template vec<real> sscr_segmented_scan(machine&, const vec<real>&, const word_vec&);

cost_prediction sscr_predicted_cost(std::int64_t n, int s, std::int64_t segments) {
  if (n < 0 || s < 2 || segments < 0 || segments > n || (n > 0 && segments < 1))
    throw model_error("sscr_predicted_cost: need n >= 0, s >= 2 and 1 <= segments <= n");
  cost_prediction p;
  p.formula = "2 S(n) + 8 VCU steps; depth D_S(n) + 7; VCU work 2 W_S(n) + 6n + 2k "
              "(S = matmul_scan, k = segments)";
  if (n == 0) return p;
  const cost_prediction scan = matmul_scan_predicted_cost(n, s);
  p.mmu_steps = 2 * scan.mmu_steps;
  p.vcu_steps = 2 * scan.vcu_steps + 8;
  p.depth = scan.depth + 7;  // e0, select, SCAN(f), f_hat - 1, compress, shift, gather, sub
  p.tile_products = 2 * scan.tile_products;
  p.multiply_adds = 2 * scan.multiply_adds;
  p.vcu_work = 2 * scan.vcu_work + 6 * n + 2 * segments;
  return p;
}

cost_prediction sscr_predicted_cost(std::int64_t n, int s) { return sscr_predicted_cost(n, s, n > 0 ? 1 : 0); }

}  // namespace mmv
