// Multi-lane decayed segmented scan: state passing of chunkwise linear RNNs
// (docs/algorithms/state_passing.md).
//
// Chunk-major layout with D decay rows of K lanes each (per row: D = H·N, K = V; per head:
// D = H, K = N·V), L = D·K lanes. A flag becomes the reset stand-in log-decay (decay_blocks.hpp),
// so each level is an unsegmented multi-lane decayed scan. One level on G chunks, nb = ⌈G/s⌉
// blocks, gp = nb·s padded chunks. Decay side, gp·D·s cells (row (βs+t, d), column c), once
// per decay row:
//   1. addresses  X[(βs+t, d), c] = l[βs+c, d] if c <= t, else the zero slot        2 VCU + 2 indices
//   2. segsum     E = exp(X · W_suffix), 0 where c > t: the decay from chunk βs+c to βs+t
//                                                                           4 VCU, 1 MMU
// Lane side, gp·L·s cells (row (βs+t, d, k), column c), every lane:
//   3. local      local = row total of E[(βs+t, d), c] · u[βs+c, d, k]     5 VCU, 1 MMU + 2 indices
//   4. carries    cum = row total of X (in-block prefix of l, decay side); cum and local at the
//                 block ends recurse as a state passing of nb chunks: H_β = state after block β
//                                                                    3 VCU, 1 MMU + 2 indices
//   5. correct    h = local + exp(cum) (replicated over the K lanes) · H_{β−1}   6 VCU + 2 indices
// The last level (nb = 1) stops after phase 3. An index is a sum of iota terms and one bounded
// term for its innermost digit (digit_index), so its words need only the bits of its values.
#include "mmvram/algorithms/state_passing.hpp"

#include "decay_blocks.hpp"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace mmv {

namespace {

using detail::decay_constants;

// One digit of a mixed-radix position (innermost first): its radix and its weight in the index.
struct digit {
  std::int64_t radix, weight;
};

// One term of an index: start + step·⌊i/block⌋ (iota), i mod block (lane-index), or
// step·(i mod block) (a table of the multiples of step, gathered by lane-index).
struct index_term {
  enum class kind { iota, modulo, table };
  kind k;
  word start, step;
  std::int64_t block;
};

// The terms whose sum is start + Σ weight_k·digit_k(i), the last digit unbounded. The
// innermost digit (r, w) of a pattern of two or more digits becomes one bounded term w·(i mod r)
// (none when w = 0 or r = 1); with b_k the product of the radices inside digit k ≥ 1,
// digit_k = ⌊i/b_k⌋ − radix_k·⌊i/b_{k+1}⌋, so the rest is Σ step_k·⌊i/b_k⌋ (iota terms; equal
// blocks merged, zero steps dropped; `start` rides on the first). The iota terms come first,
// the bounded term last, so no term carries w·i (which outgrows the index when w > 1).
std::vector<index_term> index_terms(word start, std::initializer_list<digit> digits) {
  using kind = index_term::kind;
  std::vector<index_term> terms;
  std::int64_t block = 1;
  word wrap = 0;  // what the previous outer digit's wrap-around subtracts at this block
  auto d = digits.begin();
  const bool bounded = digits.size() >= 2 && d->weight != 0 && d->radix > 1;
  const index_term inner{d->weight == 1 ? kind::modulo : kind::table, 0, d->weight, d->radix};
  if (digits.size() >= 2) block = d++->radix;
  for (; d != digits.end(); ++d) {
    if (!terms.empty() && terms.back().block == block) terms.back().step += d->weight - wrap;
    else terms.push_back({kind::iota, 0, d->weight - wrap, block});
    wrap = d->weight * d->radix;
    block *= d->radix;
  }
  std::erase_if(terms, [](const index_term& t) { return t.step == 0; });
  if (!terms.empty()) terms.front().start = start;
  else if (start != 0 || !bounded) terms.push_back({kind::iota, start, 0, 1});
  if (bounded) terms.push_back(inner);
  return terms;
}

// out[i] = start + Σ weight_k·digit_k(i) for i < count: the terms of index_terms added in a
// chain. Every word formed stays within ± the largest index of the pattern (state_level
// argues it for its patterns), so an index needs no more bits than its values.
word_vec digit_index(machine& m, std::int64_t count, word start, std::initializer_list<digit> digits) {
  using kind = index_term::kind;
  const auto term = [&](const index_term& t) {
    if (t.k == kind::iota) return m.iota(count, t.start, t.step, t.block);
    if (t.k == kind::modulo) return m.lane_index(count, t.block);
    const word_vec multiples = m.iota(t.block, 0, t.step, 1);
    return m.gather(multiples, m.lane_index(count, t.block));
  };
  const auto terms = index_terms(start, digits);
  word_vec out = term(terms[0]);
  for (std::size_t k = 1; k < terms.size(); ++k) out = m.add(out, term(terms[k]));
  return out;
}

// One level on G = l.size()/D chunks: l chunk-major [G][D] log-decays, u [G][D][K]. Returns h
// padded to ⌈G/s⌉·s chunks.
// Index widths: every term and partial sum of an index chain lies within ± its largest index.
// row ⌊i/s⌋ and decay_in ⌊i/K⌋ are one term; from_decay s·⌊i/(sK)⌋ + i mod s, the block ends
// (s−1)X + sX·⌊i/X⌋ + i mod X and carry_in L·⌊i/(sL)⌋ + i mod L are the index less its innermost
// digit, then the index. col = ⌊i/s⌋ − D·⌊i/(sD)⌋ + sD·⌊i/(s²D)⌋ + D·(i mod s): its partial sums
// are ⌊i/s⌋ = (βs+t)D + d < gp·D (the range of col), d and d + βsD; −D·⌊i/(sD)⌋ = −(βs+t)D and
// the table's D(s−1) are below gp·D too. from_u likewise with L for D. So B needs only
// gp·max(D·s, L) <= 2^(B−1) (from_decay's and from_u's ranges).
real_vec state_level(machine& m, const decay_constants& w, const real_vec& l, const real_vec& u, std::int64_t D,
                     std::int64_t K) {
  const std::int64_t s = m.s(), L = D * K, nb = ceil_div(l.size() / D, s), gp = nb * s;
  const std::int64_t dcells = gp * D * s, ucells = gp * L * s;
  word_vec keep, idx;
  {  // 1. addresses: row (βs+t, d) reads l[βs+c, d] for c <= t, the zero slot gp·D beyond
    auto tag = m.region("addresses");
    const word_vec row = digit_index(m, dcells, 0, {{s, 0}, {D, 1}, {s, D}, {1, s * D}});  // (βs+t)D + d
    const word_vec col = digit_index(m, dcells, 0, {{s, D}, {D, 1}, {s, 0}, {1, s * D}});  // (βs+c)D + d
    keep = m.compare("le", col, row);
    idx = m.select(keep, col, word{gp * D});
  }
  real_vec x, decay;
  {  // 2. pairwise log-decays of every block and decay row in one MMU step, exp, masked to c <= t
    auto tag = m.region("segsum");
    x = m.gather(m.resize(l, gp * D + 1, 0.0), idx);
    decay = m.select(keep, m.exp(m.mmu(x, w.suffix)), 0.0);
  }
  real_vec local;
  {  // 3. in-block states: each lane's inputs weighted by its row's decays, summed on the MMU
    auto tag = m.region("local");
    const word_vec from_decay = digit_index(m, ucells, 0, {{s, 1}, {K, 0}, {1, s}});
    const word_vec from_u = digit_index(m, ucells, 0, {{s, L}, {L, 1}, {s, 0}, {1, s * L}});
    const real_vec terms = m.mul(m.gather(decay, from_decay), m.gather(m.resize(u, gp * L, 0.0), from_u));
    local = m.gather_strided(m.mmu(terms, w.row_total), s - 1, s, gp * L);
  }
  if (nb == 1) return local;
  real_vec cum, carried;
  {  // 4. block decays (decay side) and block-end states recurse as a scan of nb chunks
    auto tag = m.region("carries");
    cum = m.gather_strided(m.mmu(x, w.row_total), s - 1, s, gp * D);
    const real_vec block_l = m.gather(cum, digit_index(m, nb * D, (s - 1) * D, {{D, 1}, {1, s * D}}));
    const real_vec block_u = m.gather(local, digit_index(m, nb * L, (s - 1) * L, {{L, 1}, {1, s * L}}));
    carried = state_level(m, w, block_l, block_u, D, K);
  }
  auto tag = m.region("correct");  // 5. h = local + decay from the block start × carry in
  const real_vec decay_in = m.gather(m.exp(cum), digit_index(m, gp * L, 0, {{K, 0}, {1, 1}}));
  const real_vec carry_in = m.gather(m.shift(carried, L, 0.0), digit_index(m, gp * L, 0, {{L, 1}, {s, 0}, {1, L}}));
  return m.add(local, m.mul(decay_in, carry_in));
}

// digit_index's cost; returns the depth of its result.
std::int64_t index_cost(detail::cost_tally& t, std::int64_t count, word start, std::initializer_list<digit> digits) {
  const auto term = [&](const index_term& x) {
    if (x.k != index_term::kind::table) return t.vcu(count, {0});
    const std::int64_t multiples = t.vcu(x.block, {0});
    return t.vcu(count, {multiples, t.vcu(count, {0})});
  };
  const auto terms = index_terms(start, digits);
  std::int64_t depth = term(terms[0]);
  for (std::size_t k = 1; k < terms.size(); ++k) depth = t.vcu(count, {depth, term(terms[k])});
  return depth;
}

// state_level's cost on G chunks whose l and u are ready at depths dl and du; returns the
// depth of its result.
std::int64_t level_cost(detail::cost_tally& t, std::int64_t G, std::int64_t D, std::int64_t K, std::int64_t dl,
                        std::int64_t du) {
  const std::int64_t s = t.s, L = D * K, nb = ceil_div(G, s), gp = nb * s, dcells = gp * D * s, ucells = gp * L * s;
  const std::int64_t row = index_cost(t, dcells, 0, {{s, 0}, {D, 1}, {s, D}, {1, s * D}});
  const std::int64_t col = index_cost(t, dcells, 0, {{s, D}, {D, 1}, {s, 0}, {1, s * D}});
  const std::int64_t keep = t.vcu(dcells, {col, row}), idx = t.vcu(dcells, {keep, col});
  const std::int64_t x = t.vcu(dcells, {t.vcu(gp * D + 1, {dl}), idx});
  const std::int64_t decay = t.vcu(dcells, {keep, t.vcu(dcells, {t.mmu(gp * D, {x})})});
  const std::int64_t from_decay = index_cost(t, ucells, 0, {{s, 1}, {K, 0}, {1, s}});
  const std::int64_t from_u = index_cost(t, ucells, 0, {{s, L}, {L, 1}, {s, 0}, {1, s * L}});
  const std::int64_t terms =
      t.vcu(ucells, {t.vcu(ucells, {decay, from_decay}), t.vcu(ucells, {t.vcu(gp * L, {du}), from_u})});
  const std::int64_t local = t.vcu(gp * L, {t.mmu(gp * L, {terms})});
  if (nb == 1) return local;
  const std::int64_t cum = t.vcu(gp * D, {t.mmu(gp * D, {x})});
  const std::int64_t block_l = t.vcu(nb * D, {cum, index_cost(t, nb * D, (s - 1) * D, {{D, 1}, {1, s * D}})});
  const std::int64_t block_u = t.vcu(nb * L, {local, index_cost(t, nb * L, (s - 1) * L, {{L, 1}, {1, s * L}})});
  const std::int64_t carried = level_cost(t, nb, D, K, block_l, block_u);
  const std::int64_t decay_in = t.vcu(gp * L, {t.vcu(gp * D, {cum}), index_cost(t, gp * L, 0, {{K, 0}, {1, 1}})});
  const std::int64_t carry_in =
      t.vcu(gp * L, {t.vcu(ceil_div(nb, s) * s * L, {carried}), index_cost(t, gp * L, 0, {{L, 1}, {s, 0}, {1, L}})});
  return t.vcu(gp * L, {local, t.vcu(gp * L, {decay_in, carry_in})});
}

void require_shape(const char* name, const state_shape& sh) {
  if (sh.heads < 1 || sh.rows < 1 || sh.cols < 1)
    throw model_error(std::string(name) + ": heads, rows and cols must be at least 1");
}

}  // namespace

real_vec state_passing_scan(machine& m, const real_vec& u, const real_vec& l, const word_vec& f, const state_shape& shape) {
  require_shape("state_passing_scan", shape);
  const std::int64_t G = f.size(), D = shape.decay_rows(), K = shape.lanes_per_decay();
  if (l.size() != G * D || u.size() != G * D * K)
    throw model_error("state_passing_scan: " + std::to_string(G) + " flags need " + std::to_string(G * D) +
                      " log-decays and " + std::to_string(G * D * K) + " inputs (got " + std::to_string(l.size()) +
                      " and " + std::to_string(u.size()) + ")");
  if (G == 0) return real_vec{};
  auto tag = m.region("state-passing");
  const decay_constants w = detail::load_decay_constants(m);
  // 0. every decay row of a flagged chunk gets the reset stand-in (logic_not01 checks the flags)
  const word_vec keep = m.logic_not01(m.gather(f, digit_index(m, G * D, 0, {{D, 0}, {1, 1}})));
  const real_vec h = state_level(m, w, m.select(keep, l, detail::reset_log), u, D, K);
  return h.size() == G * D * K ? h : m.resize(h, G * D * K, 0.0);
}

cost_prediction state_passing_predicted_cost(std::int64_t G, std::int64_t H, std::int64_t N, std::int64_t V, bool per_head,
                                             int s) {
  if (G < 0 || H < 1 || N < 1 || V < 1 || s < 2)
    throw model_error("state_passing_predicted_cost: need G >= 0, H, N, V >= 1 and s >= 2");
  const state_shape sh{H, N, V, per_head};
  const std::int64_t D = sh.decay_rows(), K = sh.lanes_per_decay(), L = D * K;
  detail::cost_tally t{s, {}};
  if (G > 0) {
    const std::int64_t f = t.vcu(G * D, {0, index_cost(t, G * D, 0, {{D, 0}, {1, 1}})});  // gathered flags
    const std::int64_t l = t.vcu(G * D, {t.vcu(G * D, {f}), 0});                      // reset stand-ins
    const std::int64_t h = level_cost(t, G, D, K, l, 0);
    if (G % s != 0) t.vcu(G * L, {h});
  }
  t.p.formula =
      "D decay rows of K lanes each (per row D = HN, K = V; per head D = H, K = NV), W = DK lanes; "
      "L = max(1, ceil(log_s G)) levels, G_0 = G, G_{i+1} = ceil(G_i/s), g_i = G_{i+1} s; for D, K >= 2: "
      "mmu = 3L - 1, vcu = 52L - 15 + [s does not divide G], depth = 10L + 4 + [s does not divide G] "
      "(fewer index terms when D or K is 1); multiply_adds = sum (2 g_i D + g_i W) s^2 - g_{L-1} D s^2; "
      "vcu_work = 4GD + sum (14 g_i s (D + W) + g_i D + 2 g_i W + 2s + 1) + sum_{i<L-1} (2 g_i D + 8 g_i W + "
      "4 G_{i+1} (D + W) + g_{i+1} W) + [s does not divide G] G W";
  return t.p;
}

}  // namespace mmv
