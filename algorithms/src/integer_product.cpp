// Element-wise integer product in O(log_s B) steps from weighted segmented sums
// (docs/algorithms/integer_product.md; the construction is ours: the paper states the bound).
// n pairs of B-bit words, K = B−1 magnitude bits, P = ceil(K/s)·s bit lanes per element:
//   1. signs      b = −2^(B−1) has no magnitude: swap it into a; x = −|a'| (never overflows),
//                 y = |b'|, same = [signs agree]                                11 VCU
//   2. bits       lane (i, k): term = bit k of y_i ? x_i : 0, k = min(lane, K) (bit K of
//                 y is 0, so padding lanes hold 0)                               8 VCU
//   3. levels     rows of s digits with exponent step d (d = 1, s, s², ...): one MMU product
//                 with W_d[q][s−1] = 2^(d·q) (0 where d·q > K−1) sums each row's digits with
//                 their weights; the row sums are the next level's digits. After the first
//                 level (when it leaves c1 >= 2 digits per element), and after any later level
//                 that leaves a count s does not divide, a gather re-pads each element to a
//                 multiple of s. Re-padding after the first level even when s divides c1 keeps
//                 the addresses (up to n·c1 − 1) growing with B, so a run that fits B bits also
//                 fits B + 1 (docs/algorithms/integer_product.md). per level 1 MMU + 1 VCU (+7 VCU)
//   4. sign       out = same ? −P : P, computed without negating −2^(B−1) needlessly  3 VCU
// All terms of an element have one sign, so every partial sum lies between 0 and −|a·b|: a
// width_error is raised exactly when −|a·b| < −2^(B−1), or when a·b = 2^(B−1) (in the last
// negation).
#include "mmvram/algorithms/applications.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace mmv {

namespace {

// Bit lanes per element: the K = B−1 magnitude bits padded to a multiple of s.
std::int64_t bit_lanes(std::int64_t s, int bits) { return ceil_div(bits - 1, s) * s; }

// W[q][s−1] = 2^(d·q) while d·q <= K−1 (K = B−1 magnitude bits), every other entry 0.
word_vec load_weight_matrix(machine& m, std::int64_t d) {
  const std::int64_t s = m.s(), top = m.word_bits() - 2;
  std::vector<word> w(static_cast<std::size_t>(s * s), 0);
  for (std::int64_t q = 0; q < s && d * q <= top; ++q) w[static_cast<std::size_t>(q * s + s - 1)] = word{1} << (d * q);
  return m.load<word>(w, "const:bit-weights");
}

}  // namespace

word_vec elementwise_product(machine& m, const word_vec& a, const word_vec& b) {
  const std::int64_t n = a.size(), s = m.s();
  if (b.size() != n)
    throw model_error("elementwise_product: operand lengths differ (" + std::to_string(n) + " vs " +
                      std::to_string(b.size()) + ")");
  if (n == 0) return word_vec{};
  auto tag = m.region("elementwise-product");
  const word magnitude_bits = m.word_bits() - 1;
  word_vec x, y, same;
  {  // 1. signs and magnitudes
    auto g = m.region("signs");
    const word_vec swap = m.compare("eq", b, m.word_min());
    const word_vec a1 = m.select(swap, b, a), b1 = m.select(swap, a, b);
    const word_vec a_pos = m.compare("ge", a1, word{0}), b_pos = m.compare("ge", b1, word{0});
    same = m.compare("eq", a_pos, b_pos);
    x = m.select(a_pos, m.neg(m.select(a_pos, a1, word{0})), a1);  // −|a1|
    y = m.select(b_pos, b1, m.neg(b1));                              // |b1|
  }
  std::int64_t per = bit_lanes(s, m.word_bits());  // digits per element, a multiple of s
  word_vec digits;
  {  // 2. one term per bit of y: x where the bit is set, else 0
    auto g = m.region("bits");
    const std::int64_t lanes = n * per;
    const word_vec owner = m.iota(lanes, 0, 1, per);
    const word_vec bit = m.min(m.lane_index(lanes, per), m.broadcast(magnitude_bits, lanes));
    digits = m.select(m.extract_bit(m.gather(y, owner), bit), m.gather(x, owner), word{0});
  }
  {  // 3. weighted row sums on the MMU, s digits per row, until one digit per element is left
    auto g = m.region("levels");
    for (std::int64_t step = 1;; step *= s) {  // digit q of a row has exponent step·q
      const std::int64_t c = per / s;
      digits = m.gather_strided(m.mmu(digits, load_weight_matrix(m, step)), s - 1, s, n * c);
      if (c == 1) break;
      per = ceil_div(c, s) * s;
      if (per == c && step != 1) continue;
      // Re-pad each element's c digits to per: lane t < c reads digit c·i + t, the padding
      // lanes read digit c·i and are zeroed, so no address exceeds n·c − 1.
      const word_vec lane = m.lane_index(n * per, per);
      const word_vec real_lane = m.compare("lt", lane, c);
      const word_vec source = m.add(m.iota(n * per, 0, c, per), m.select(real_lane, lane, word{0}));
      digits = m.select(real_lane, m.gather(digits, source), word{0});
    }
  }
  auto g = m.region("sign");  // 4. −|a·b| is in `digits`; negate where the signs agree
  return m.select(same, m.neg(m.select(same, digits, word{0})), digits);
}

namespace detail {

std::int64_t elementwise_product_tally(cost_tally& t, std::int64_t n, int bits, std::int64_t da, std::int64_t db) {
  if (n == 0) return std::max(da, db);
  const std::int64_t swap = t.vcu(n, {db});
  const std::int64_t a1 = t.vcu(n, {swap, da, db}), b1 = t.vcu(n, {swap, da, db});
  const std::int64_t a_pos = t.vcu(n, {a1}), b_pos = t.vcu(n, {b1});
  const std::int64_t same = t.vcu(n, {a_pos, b_pos});
  const std::int64_t x = t.vcu(n, {a_pos, t.vcu(n, {t.vcu(n, {a_pos, a1})}), a1});
  const std::int64_t y = t.vcu(n, {b_pos, b1, t.vcu(n, {b1})});
  std::int64_t per = bit_lanes(t.s, bits);
  const std::int64_t lanes = n * per;
  const std::int64_t owner = t.vcu(lanes, {0});
  const std::int64_t bit = t.vcu(lanes, {t.vcu(lanes, {0}), t.vcu(lanes, {0})});
  const std::int64_t set = t.vcu(lanes, {t.vcu(lanes, {y, owner}), bit});
  std::int64_t digits = t.vcu(lanes, {set, t.vcu(lanes, {x, owner})});
  for (bool first = true;; first = false) {
    const std::int64_t c = per / t.s;
    digits = t.vcu(n * c, {t.mmu(n * c, {digits})});
    if (c == 1) break;
    per = ceil_div(c, t.s) * t.s;
    if (per == c && !first) continue;
    const std::int64_t len = n * per;
    const std::int64_t lane = t.vcu(len, {0});
    const std::int64_t real_lane = t.vcu(len, {lane});
    const std::int64_t source = t.vcu(len, {t.vcu(len, {0}), t.vcu(len, {real_lane, lane})});
    digits = t.vcu(len, {real_lane, t.vcu(len, {digits, source})});
  }
  return t.vcu(n, {same, t.vcu(n, {t.vcu(n, {same, digits})}), digits});
}

}  // namespace detail

cost_prediction elementwise_product_predicted_cost(std::int64_t n, int s, int bits) {
  if (n < 0 || s < 2 || bits < 2 || bits > 64)
    throw model_error("elementwise_product_predicted_cost: need n >= 0, s >= 2 and 2 <= bits <= 64");
  detail::cost_tally t{s, {}};
  detail::elementwise_product_tally(t, n, bits, 0, 0);
  t.p.formula =
      "K = B-1, L = max(1, ceil(log_s K)) MMU levels, c_l = ceil(K/s^l) digits per element after level l, "
      "p_l = ceil(c_l/s)*s (p_0 lanes; level l+1 reads p_l digits); mmu = L, tile_products = sum_l ceil(n c_{l+1}/s), "
      "multiply_adds = n s sum_{l<L} p_l; vcu = 22 + L + 7R, R = #{1 <= l < L : l = 1 or p_l != c_l} "
      "(the re-padded levels); vcu_work = 14n + 8 n p_0 + n sum_{l>=1} c_l + 7 n sum over re-padded l of p_l";
  return t.p;
}

}  // namespace mmv
