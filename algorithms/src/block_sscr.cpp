// Block-recursive SSCR with REVSPEC: the segmented scan in O(log_s n) steps and O(n s) work,
// with no scan longer than s. One level on n values (N = s * ceil(n/s), p = [N != n]):
//   1 pad          x, f padded with zeros to N                   2p VCU steps, work 2pN
//   2 scan-blocks  x_in = in-block prefix sums (x * prefix matrix)  1 MMU step, N s multiply-adds
//   3 revspec      y = REVSPEC(x_in, f): in-block segmented scan   1 VCU step, work N s
//   -- n <= s: y (unpadded) is the answer: the base case.
//   4 block-flags  seen = (in-block prefix sums of f) > 0,
//                  block_flag[b] = seen at b's last lane (= OR of b's flags)
//                                                                  1 MMU step + 2 VCU steps, work N + N/s
//   5 carries      carry[b] = y at b's last lane                   1 VCU step, work N/s
//   6 recurse      r = block SSCR(carry, block_flag): r[b] = the true segmented scan at b's end
//   7 correct      out = seen ? y : y + r[b - 1]  (r[-1] = 0)      5 VCU steps, work 4N + N/s
//   8 unpad        out truncated to n                              p VCU steps, work pn
#include "mmvram/algorithms/segmented.hpp"

#include <string>

namespace mmv {

namespace {

// The segmented scan of (x, f), any length n >= 1; `prefix` and `prefix_flags` are the s x s
// in-row prefix matrices for values and for flags.
template <class T>
vec<T> block_level(machine& m, const vec<T>& x, const word_vec& f, const vec<T>& prefix,
                   const word_vec& prefix_flags) {
  const std::int64_t n = x.size(), s = m.s(), blocks = ceil_div(n, s), padded = blocks * s;
  vec<T> xp = x;
  word_vec fp = f;
  if (padded != n) {
    auto g = m.region("pad");
    xp = m.resize(x, padded, T{0});
    fp = m.resize(f, padded, word{0});
  }
  vec<T> y;
  {
    auto g = m.region("scan-blocks");
    y = m.mmu(xp, prefix);
  }
  {
    auto g = m.region("revspec");  // also rejects flags other than 0/1
    y = m.revspec(y, fp);
  }
  const auto unpad = [&](const vec<T>& v) {
    if (padded == n) return v;
    auto g = m.region("unpad");
    return m.resize(v, n, T{0});
  };
  if (blocks == 1) return unpad(y);

  word_vec seen, block_flags;
  {
    auto g = m.region("block-flags");
    seen = m.compare("gt", m.mmu(fp, prefix_flags), word{0});
    block_flags = m.gather_strided(seen, s - 1, s, blocks);
  }
  vec<T> carries;
  {
    auto g = m.region("carries");
    carries = m.gather_strided(y, s - 1, s, blocks);
  }
  const vec<T> block_ends = block_level(m, carries, block_flags, prefix, prefix_flags);
  vec<T> out;
  {  // A position with no flag before it in its block continues the previous block's segment.
    auto g = m.region("correct");
    const vec<T> carry_in = m.shift(block_ends, 1, T{0});
    const vec<T> spread = m.gather(carry_in, m.iota(padded, 0, 1, s));
    out = m.select(seen, y, m.add(y, spread));
  }
  return unpad(out);
}

}  // namespace

template <class T>
vec<T> block_sscr_segmented_scan(machine& m, const vec<T>& x, const word_vec& f) {
  auto g = m.region("block_sscr");
  if (x.size() != f.size())
    throw model_error("block_sscr_segmented_scan: values and flags differ in length (" +
                      std::to_string(x.size()) + " vs " + std::to_string(f.size()) + ")");
  if (x.size() == 0) return vec<T>();
  if constexpr (std::is_same_v<T, word>) {
    const word_vec prefix = load_prefix_matrix<word>(m);
    return block_level<word>(m, x, f, prefix, prefix);
  } else {
    return block_level<T>(m, x, f, load_prefix_matrix<T>(m), load_prefix_matrix<word>(m));
  }
}

template vec<word> block_sscr_segmented_scan(machine&, const vec<word>&, const word_vec&);
template vec<real> block_sscr_segmented_scan(machine&, const vec<real>&, const word_vec&);

cost_prediction block_sscr_predicted_cost(std::int64_t n, int s) {
  if (n < 0 || s < 2) throw model_error("block_sscr_predicted_cost: need n >= 0 and s >= 2");
  cost_prediction p;
  p.formula =
      "steps 11(L-1) + 2 + 3P (MMU 2L-1), depth 7(L-1) + 2 + 2P, L = max(1, ceil(log_s n)) levels, P = levels "
      "that pad. Levels n_0 = n, n_{l+1} = ceil(n_l/s) while n_l > s, then one base level; N_l = s ceil(n_l/s), p_l = [N_l != n_l]. General level: 2 MMU + 9 + 3p_l VCU steps, "
      "depth 7 + 2p_l, 2 ceil(N_l/s^2) tiles, 2 N_l s MACs, VCU work N_l(s+5) + 3N_l/s + p_l(2N_l + n_l). "
      "Base: 1 MMU + 1 + 3p VCU steps, depth 2 + 2p, 1 tile, s^2 MACs, VCU work s^2 + p(2s + n_l)";
  std::int64_t len = n;
  while (len > 0) {
    const std::int64_t blocks = ceil_div(len, s), padded = blocks * s, pad = padded != len ? 1 : 0;
    const std::int64_t pad_work = pad * (2 * padded + len);
    if (blocks == 1) {
      p.mmu_steps += 1;
      p.vcu_steps += 1 + 3 * pad;
      p.depth += 2 + 2 * pad;
      p.tile_products += 1;
      p.multiply_adds += padded * s;
      p.vcu_work += padded * s + pad_work;
      break;
    }
    p.mmu_steps += 2;
    p.vcu_steps += 9 + 3 * pad;
    p.depth += 7 + 2 * pad;
    p.tile_products += 2 * ceil_div(blocks, s);
    p.multiply_adds += 2 * padded * s;
    p.vcu_work += padded * (s + 5) + 3 * blocks + pad_work;
    len = blocks;
  }
  return p;
}

}  // namespace mmv
