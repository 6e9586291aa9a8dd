// Hillis–Steele inclusive scan on the VCU only. With L = ceil(log2 n):
//   round d = 0..L-1: a = a + shift(a, 2^d, 0)   VCU 2 steps (shift, add), work 2n
// After round d, a[i] sums x over (i - 2^(d+1), i]. Steps 2L, depth 2L, work 2nL.
#include "mmvram/algorithms/scan.hpp"

namespace mmv {

template <class T>
vec<T> hillis_steele_scan(machine& m, const vec<T>& x) {
  const auto tag = m.region("hillis-steele");
  vec<T> a = x;
  for (std::int64_t offset = 1; offset < x.size(); offset *= 2) a = m.add(a, m.shift(a, offset, T{0}));
  return a;
}

cost_prediction hillis_steele_predicted_cost(std::int64_t n, int s) {
  if (n < 0 || s < 2) throw model_error("hillis_steele_predicted_cost: need n >= 0 and s >= 2");
  cost_prediction p;
  p.formula = "L = ceil(log2 n): VCU 2L (L shifts + L adds), depth 2L, work 2nL";
  if (n <= 1) return p;
  const std::int64_t rounds = ceil_log(n, 2);
  p.vcu_steps = 2 * rounds;
  p.depth = 2 * rounds;
  p.vcu_work = 2 * n * rounds;
  return p;
}

template vec<word> hillis_steele_scan<word>(machine&, const vec<word>&);
template vec<real> hillis_steele_scan<real>(machine&, const vec<real>&);

}  // namespace mmv
