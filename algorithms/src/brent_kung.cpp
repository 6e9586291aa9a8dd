// Brent–Kung / Blelloch inclusive scan on the VCU only (work-efficient). With k = ceil(log2 n),
// n' = 2^k (x zero-padded) and level j holding L_j = n' / 2^j values, for n >= 2:
//   1. pad      x to n' (one resize, only when n' != n)                       VCU 0/1 step
//   2. up-sweep j = 0..k-2: left = t_j[0::2], right = t_j[1::2] (two
//               gather_strided), t_{j+1} = left + right                       VCU 3 per level
//   3. top      e = shift(t_{k-1}, 1, 0): the exclusive scan of the last pair  VCU 1
//   4. down     j = k-2..0: even slots get e, odd slots get e + left (add, two
//               iota address vectors, two scatters): e = exclusive scan of t_j VCU 5 per level
//   5. finish   inclusive = exclusive (truncated to n) + x                     VCU 1/2
// Steps 8k-6 + 2[n'!=n], depth 4k-2 + 2[n'!=n], work O(n). n <= 1: x itself.
#include "mmvram/algorithms/scan.hpp"

#include <vector>

namespace mmv {

template <class T>
vec<T> brent_kung_scan(machine& m, const vec<T>& x) {
  const std::int64_t n = x.size();
  if (n <= 1) return x;
  const auto tag = m.region("brent-kung");
  const std::int64_t padded = std::int64_t{1} << ceil_log(n, 2);

  // 1-2. Pad, then pairwise up-sweep; `left` keeps each level's left children.
  std::vector<vec<T>> levels, left;
  vec<T> t = padded != n ? m.resize(x, padded, T{0}) : x;
  {
    const auto up = m.region("up");
    while (t.size() > 2) {
      levels.push_back(t);
      left.push_back(m.gather_strided(t, 0, 2, t.size() / 2));
      t = m.add(left.back(), m.gather_strided(t, 1, 2, t.size() / 2));
    }
  }
  // 3. Top: the exclusive scan of one pair is (0, first).
  vec<T> e;
  {
    const auto top = m.region("top");
    e = m.shift(t, 1, T{0});
  }
  // 4. Down-sweep: a node's exclusive prefix goes to its left child, plus the left sum to its right.
  {
    const auto down = m.region("down");
    for (std::size_t j = levels.size(); j-- > 0;) {
      const vec<T> odd = m.add(e, left[j]);
      const vec<T> even_set = m.scatter(levels[j], m.iota(e.size(), 0, 2), e);
      e = m.scatter(even_set, m.iota(e.size(), 1, 2), odd);
    }
  }
  // 5. Inclusive = exclusive + x.
  const auto finish = m.region("finish");
  if (padded != n) e = m.resize(e, n, T{0});
  return m.add(e, x);
}

cost_prediction brent_kung_predicted_cost(std::int64_t n, int s) {
  if (n < 0 || s < 2) throw model_error("brent_kung_predicted_cost: need n >= 0 and s >= 2");
  cost_prediction p;
  p.formula = "k = ceil(log2 n), n' = 2^k: VCU 8k-6+2[n'!=n], depth 4k-2+2[n'!=n], work 10n'-18+n+(n'+n)[n'!=n]";
  if (n <= 1) return p;
  const std::int64_t k = ceil_log(n, 2), padded = std::int64_t{1} << k;
  const bool pad = padded != n;
  const auto vcu_step = [&](std::int64_t work) {
    ++p.vcu_steps;
    p.vcu_work += work;
  };
  if (pad) vcu_step(padded);
  for (std::int64_t length = padded; length > 2; length /= 2) {
    vcu_step(length / 2), vcu_step(length / 2), vcu_step(length / 2);  // two gathers, add
    vcu_step(length / 2);                                              // add of the left sums
    vcu_step(length / 2), vcu_step(length / 2);                        // two iotas
    vcu_step(length), vcu_step(length);                                // two scatters
  }
  vcu_step(2);  // top shift
  if (pad) vcu_step(n);
  vcu_step(n);  // final add
  p.depth = 4 * k - 2 + (pad ? 2 : 0);
  return p;
}

template vec<word> brent_kung_scan<word>(machine&, const vec<word>&);
template vec<real> brent_kung_scan<real>(machine&, const vec<real>&);

}  // namespace mmv
