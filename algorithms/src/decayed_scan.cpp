// Decayed segmented scan h_j = a_j·h_{j−1} + b_j with resets at flags (docs/algorithms/decayed_scan.md).
//
// Stable form. A flag at k means "a_k = 0", i.e. log-decay −∞; we write the finite stand-in
// reset_log (exp of it, and of any sum containing it, is exactly 0), so the recursion below is
// an unsegmented decayed scan of (ℓ, b) with ℓ = log a. One level on n values, nb = ⌈n/s⌉ blocks,
// np = nb·s padded positions, np·s cells (row r = βs + t of block β, lane u):
//   1. addresses  idx[r, u] = βs + u if u <= t, else the zero slot np           6 VCU
//   2. segsum     X[r, u] = ℓ[idx];  S = X · W_suffix, W_suffix[k][c] = [k > c], so
//                 S[r, c] = ℓ_{c+1} + ... + ℓ_t (additions only); E = exp(S)     3 VCU, 1 MMU
//   3. local      P = E ⊙ b[idx];  local_t = row total of P = Σ_{c<=t} decay(c→t)·b_c
//                                                                              4 VCU, 1 MMU
//   4. carries    cum = in-block prefix of ℓ (MMU, W_prefix); the block log-decays (last
//                 column) and the blocks' last local states recurse as a decayed scan of
//                 size nb, giving H_β = h at the end of block β                3 VCU, 1 MMU
//   5. correct    h = local + exp(cum) ⊙ H_{β−1}                                6 VCU
// The last level (nb = 1) stops after phase 3. Every quantity is a sum of log-decays of one
// span or a product of values in [0, 1]: nothing is subtracted.
#include "mmvram/algorithms/decayed_scan.hpp"

#include "decay_blocks.hpp"
#include "mmvram/algorithms/common.hpp"  // detail::cost_tally
#include "mmvram/algorithms/scan.hpp"
#include "mmvram/algorithms/segmented.hpp"

#include <string>
#include <vector>

namespace mmv {

namespace {

using detail::decay_constants;
using detail::reset_log;

// One level of the unsegmented decayed scan of (l, b), l = log-decays. Returns h padded to
// ⌈n/s⌉·s entries.
real_vec decayed_level(machine& m, const decay_constants& w, const real_vec& l, const real_vec& b) {
  const std::int64_t s = m.s(), nb = ceil_div(l.size(), s), np = nb * s, cells = np * s;
  word_vec idx;
  {  // 1. addresses of the replicated-and-masked blocks
    auto tag = m.region("addresses");
    const word_vec start = m.iota(cells, 0, s, s * s);  // βs
    const word_vec lane = m.lane_index(cells, s);       // u
    const word_vec row = m.iota(cells, 0, 1, s);        // βs + t
    const word_vec source = m.add(start, lane);         // βs + u
    idx = m.select(m.compare("le", source, row), source, word{np});
  }
  real_vec decay;
  {  // 2. pairwise log-decays of every block in one MMU step, then exp
    auto tag = m.region("segsum");
    decay = m.exp(m.mmu(m.gather(m.resize(l, np + 1, 0.0), idx), w.suffix));
  }
  real_vec local;
  {  // 3. in-block states: decay-weighted b, summed along each row on the MMU
    auto tag = m.region("local");
    const real_vec terms = m.mul(decay, m.gather(m.resize(b, np + 1, 0.0), idx));
    local = m.gather_strided(m.mmu(terms, w.row_total), s - 1, s, np);
  }
  if (nb == 1) return local;
  real_vec cum, carried;
  {  // 4. block decays and block states recurse as a decayed scan of size nb
    auto tag = m.region("carries");
    cum = m.mmu(m.resize(l, np, 0.0), w.prefix);
    carried = decayed_level(m, w, m.gather_strided(cum, s - 1, s, nb), m.gather_strided(local, s - 1, s, nb));
  }
  auto tag = m.region("correct");  // 5. h = local + decay from the block start × carry in
  const real_vec carry_in = m.gather(m.shift(carried, 1, 0.0), m.iota(np, 0, 1, s));
  return m.add(local, m.mul(m.exp(cum), carry_in));
}

void require_lengths(const char* name, std::int64_t a, std::int64_t b, std::int64_t f) {
  if (a != b || a != f)
    throw model_error(std::string(name) + ": a, b and f must have equal lengths (got " + std::to_string(a) +
                      ", " + std::to_string(b) + ", " + std::to_string(f) + ")");
}

// decayed_level's cost on n values whose l and b are ready at depths dl and db; returns the
// depth of its result.
std::int64_t level_cost(detail::cost_tally& t, std::int64_t n, std::int64_t dl, std::int64_t db) {
  const std::int64_t s = t.s, nb = ceil_div(n, s), np = nb * s, cells = np * s;
  const std::int64_t start = t.vcu(cells, {0}), lane = t.vcu(cells, {0}), row = t.vcu(cells, {0});
  const std::int64_t source = t.vcu(cells, {start, lane});
  const std::int64_t idx = t.vcu(cells, {source, t.vcu(cells, {source, row})});
  const std::int64_t decay = t.vcu(cells, {t.mmu(np, {t.vcu(cells, {t.vcu(np + 1, {dl}), idx})})});
  const std::int64_t terms = t.vcu(cells, {decay, t.vcu(cells, {t.vcu(np + 1, {db}), idx})});
  const std::int64_t local = t.vcu(np, {t.mmu(np, {terms})});
  if (nb == 1) return local;
  const std::int64_t cum = t.mmu(nb, {t.vcu(np, {dl})});
  const std::int64_t carried = level_cost(t, nb, t.vcu(nb, {cum}), t.vcu(nb, {local}));
  const std::int64_t carry_in = t.vcu(np, {t.vcu(ceil_div(nb, s) * s, {carried}), t.vcu(np, {0})});
  return t.vcu(np, {local, t.vcu(np, {t.vcu(np, {cum}), carry_in})});
}

}  // namespace

decay_constants detail::load_decay_constants(machine& m) {
  const int s = m.s();
  std::vector<real> suffix(static_cast<std::size_t>(s) * s, 0.0);
  for (int k = 0; k < s; ++k)
    for (int c = 0; c < k; ++c) suffix[static_cast<std::size_t>(k) * s + c] = 1.0;
  return {m.load<real>(suffix, "const:suffix-ones"), load_prefix_matrix<real>(m), load_row_total_matrix<real>(m)};
}

real_vec decayed_scan_stable(machine& m, const real_vec& a, const real_vec& b, const word_vec& f) {
  require_lengths("decayed_scan_stable", a.size(), b.size(), f.size());
  const std::int64_t n = a.size();
  if (n == 0) return real_vec{};
  auto tag = m.region("decayed-stable");
  const decay_constants w = detail::load_decay_constants(m);
  // 0. log-decays, with the reset stand-in at flags (logic_not01 also checks the flags)
  const real_vec l = m.select(m.logic_not01(f), m.log(a), reset_log);
  const real_vec h = decayed_level(m, w, l, b);
  return h.size() == n ? h : m.resize(h, n, 0.0);
}

real_vec decayed_scan_unstable(machine& m, const real_vec& a, const real_vec& b, const word_vec& f) {
  require_lengths("decayed_scan_unstable", a.size(), b.size(), f.size());
  if (a.size() == 0) return real_vec{};
  auto tag = m.region("decayed-unstable");
  const real_vec c = matmul_scan(m, m.log(a));                // c_j = Σ_{k<=j} log a_k
  const real_vec scaled = m.mul(m.exp(m.neg(c)), b);          // exp(−c_i)·b_i
  return m.mul(m.exp(c), sscr_segmented_scan(m, scaled, f));  // exp(c_j)·Σ_{i in segment, i<=j} ...
}

cost_prediction decayed_scan_stable_predicted_cost(std::int64_t n, int s) {
  if (n < 0 || s < 2) throw model_error("decayed_scan_stable_predicted_cost: need n >= 0 and s >= 2");
  detail::cost_tally t{s, {}};
  if (n > 0) {
    const std::int64_t l = t.vcu(n, {t.vcu(n, {0}), t.vcu(n, {0})});  // select(not f, log a)
    const std::int64_t h = level_cost(t, n, l, 0);
    if (n % s != 0) t.vcu(n, {h});
  }
  t.p.formula =
      "L = max(1, ceil(log_s n)) levels, n_0 = n, n_{i+1} = ceil(n_i/s), p_i = ceil(n_i/s)*s; "
      "mmu = 3L - 1; vcu = 22L - 6 + [s does not divide n]; depth = 10L + [s does not divide n]; level i has 2 MMU products of p_i rows, "
      "and one of n_{i+1} rows when i < L-1: multiply_adds = sum 2 p_i s^2 + sum_{i<L-1} n_{i+1} s^2; "
      "vcu_work = 3n + sum (10 p_i s + 3 p_i + 2) + sum_{i<L-1} (6 p_i + 2 n_{i+1} + p_{i+1}) + [s does not divide n] n";
  return t.p;
}

cost_prediction decayed_scan_unstable_predicted_cost(std::int64_t n, int s, std::int64_t segments) {
  if (n < 0 || s < 2 || segments < 0 || segments > n || (n > 0 && segments < 1))
    throw model_error("decayed_scan_unstable_predicted_cost: need n >= 0, s >= 2 and 1 <= segments <= n");
  detail::cost_tally t{s, {}};
  t.p.formula = "3 S(n) + 14 VCU steps; depth 2 D_S(n) + 9; VCU work 3 W_S(n) + 12n + 2k "
                "(S = matmul_scan, k = segments)";
  if (n == 0) return t.p;
  const cost_prediction scan = matmul_scan_predicted_cost(n, s);
  const std::int64_t c = t.call(scan, scan.depth + t.vcu(n, {0}));  // c = MatMulScan(log a)
  const std::int64_t scaled = t.vcu(n, {t.vcu(n, {t.vcu(n, {c})}), 0});
  // SSCR's output: 4 steps after the later of its x_hat (scaled + D_S) and its f_hat - 1 (D_S + 3).
  const std::int64_t segscan = t.call(sscr_predicted_cost(n, s, segments), std::max(scaled, std::int64_t{3}) + scan.depth + 4);
  t.vcu(n, {t.vcu(n, {c}), segscan});
  return t.p;
}

}  // namespace mmv
