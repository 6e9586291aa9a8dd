// The direct "min-index" segmented scan of Sengupta, Harris & Garland (2008), VCU only: every
// position learns where its segment starts, then a Hillis–Steele scan adds x[i - 2^d] only
// when that position lies in the same segment. With L = ceil(log2 n), for n >= 1:
//   1. heads = f ? i : 0 (iota, select; the machine rejects flags
//      other than 0/1)                                               VCU 2 steps, work 2n
//   2. mindex = max-scan of heads: L rounds of max(a, shift(a, 2^d)) VCU 2L steps, work 2nL
//   3. dist = i - mindex[i], the offset of i inside its segment      VCU 1 step, work n
//   4. round d = 0..L-1: v = v + select(dist >= 2^d,
//                                       shift(v, 2^d, 0), 0)         VCU 4 steps, work 4n
// Selecting before adding keeps every sum inside one segment: B only has to hold segmented
// values (and the indices 0..n-1).
// Steps 6L + 3, depth 5L + 3 (3 when n = 1), work n * steps. Indices need B >= ceil(log2 n) + 1.
#include "mmvram/algorithms/segmented_baselines.hpp"

#include <string>

namespace mmv {

template <class T>
vec<T> min_index_segmented_scan(machine& m, const vec<T>& x, const word_vec& f) {
  if (x.size() != f.size())
    throw model_error("min_index_segmented_scan: x has " + std::to_string(x.size()) + " values but f has " +
                      std::to_string(f.size()) + " flags");
  const std::int64_t n = x.size();
  if (n == 0) return x;
  const auto tag = m.region("min-index");
  const word_vec index = m.iota(n);
  word_vec mindex = m.select(f, index, word{0});
  for (std::int64_t offset = 1; offset < n; offset *= 2) mindex = m.max(mindex, m.shift(mindex, offset, word{0}));
  const word_vec dist = m.sub(index, mindex);
  vec<T> v = x;
  for (std::int64_t offset = 1; offset < n; offset *= 2)
    v = m.add(v, m.select(m.compare("ge", dist, word{offset}), m.shift(v, offset, T{0}), T{0}));
  return v;
}

cost_prediction min_index_segmented_scan_predicted_cost(std::int64_t n, int s) {
  if (n < 0 || s < 2) throw model_error("min_index_segmented_scan_predicted_cost: need n >= 0 and s >= 2");
  cost_prediction p;
  p.formula = "L = ceil(log2 n): VCU 6L+3, depth 5L+3 (n=1: 3), work n*steps";
  if (n == 0) return p;
  const std::int64_t rounds = ceil_log(n, 2);
  p.vcu_steps = 6 * rounds + 3;
  p.depth = rounds == 0 ? 3 : 5 * rounds + 3;
  p.vcu_work = n * p.vcu_steps;
  return p;
}

template vec<word> min_index_segmented_scan<word>(machine&, const vec<word>&, const word_vec&);
template vec<real> min_index_segmented_scan<real>(machine&, const vec<real>&, const word_vec&);

}  // namespace mmv
