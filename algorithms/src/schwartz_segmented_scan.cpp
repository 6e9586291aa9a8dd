// Schwartz's operator transform (Blelloch 1990, sec. 1.5) run as a Hillis–Steele scan of
// pairs on the VCU. We carry c = 1 - f ("continues the segment to its left"), so the
// transformed operator reads (c_a, a) + (c_b, b) = (c_a & c_b, b + (c_b ? a : 0)) and the shift
// fill (c, v) = (1, 0) is its identity. Selecting before adding keeps every sum inside one
// segment, so B only has to hold segmented values. With L = ceil(log2 n), for n >= 1:
//   1. c = NOT f (the machine rejects flags other than 0/1)          VCU 1 step, work n
//   2. round d = 0..L-1, offset 2^d:
//        v = v + select(c, shift(v, 2^d, 0), 0)                       VCU 3 steps, work 3n
//        c = c & shift(c, 2^d, 1)       (skipped in the last round)   VCU 2 steps, work 2n
// Steps 5L - 1 (1 when n = 1), depth 3L (1 when n = 1), work n * steps.
#include "mmvram/algorithms/segmented_baselines.hpp"

#include <string>

namespace mmv {

template <class T>
vec<T> schwartz_segmented_scan(machine& m, const vec<T>& x, const word_vec& f) {
  if (x.size() != f.size())
    throw model_error("schwartz_segmented_scan: x has " + std::to_string(x.size()) + " values but f has " +
                      std::to_string(f.size()) + " flags");
  const std::int64_t n = x.size();
  if (n == 0) return x;
  const auto tag = m.region("schwartz");
  word_vec c = m.logic_not01(f);
  vec<T> v = x;
  for (std::int64_t offset = 1; offset < n; offset *= 2) {
    v = m.add(v, m.select(c, m.shift(v, offset, T{0}), T{0}));
    if (2 * offset < n) c = m.logic_and(m.shift(c, offset, word{1}), c);
  }
  return v;
}

cost_prediction schwartz_segmented_scan_predicted_cost(std::int64_t n, int s) {
  if (n < 0 || s < 2) throw model_error("schwartz_segmented_scan_predicted_cost: need n >= 0 and s >= 2");
  cost_prediction p;
  p.formula = "L = ceil(log2 n): VCU 5L-1 (n=1: 1), depth 3L (n=1: 1), work n*steps";
  if (n == 0) return p;
  const std::int64_t rounds = ceil_log(n, 2);
  p.vcu_steps = rounds == 0 ? 1 : 5 * rounds - 1;
  p.depth = rounds == 0 ? 1 : 3 * rounds;
  p.vcu_work = n * p.vcu_steps;
  return p;
}

template vec<word> schwartz_segmented_scan<word>(machine&, const vec<word>&, const word_vec&);
template vec<real> schwartz_segmented_scan<real>(machine&, const vec<real>&, const word_vec&);

}  // namespace mmv
