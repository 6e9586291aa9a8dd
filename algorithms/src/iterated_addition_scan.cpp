// The k-ary iterated-addition scans (docs/algorithms/iterated_addition.md). One level on n > k
// elements, nb = ceil(n/k) blocks (n <= k: the first instruction alone):
//   plain       y = block-prefix(x, k); t = every k-th of shift(y, 1) (t[b] = total of block
//               b-1, t[0] = 0); e = scan(t); out = y + gather(e, iota(i/k))       VCU 6 steps
//   segmented   y = block-seg-prefix(x, f, k); g = block-seg-prefix(f, f, k) (1 where a head
//               precedes i in its block); t, h = every k-th of shift(y, 1), shift(g, 1, fill 1);
//               e = segscan(t, h); out = y + select(not g, gather(e, iota(i/k)), 0)  VCU 11 steps
// so with L = ceil(log_k n) levels: steps 6(L-1)+1 and 11(L-1)+1, depth 5(L-1)+1 and 6(L-1)+1.
#include "mmvram/algorithms/iterated_addition.hpp"

#include <algorithm>
#include <string>

namespace mmv {

std::int64_t iterated_addition_block(std::int64_t n) { return n <= 1 ? 2 : std::max<std::int64_t>(2, ceil_log(n, 2)); }

namespace {

template <class T>
vec<T> scan_level(machine& m, const vec<T>& x, std::int64_t k) {
  const std::int64_t n = x.size();
  const vec<T> y = m.block_prefix_sum(x, k);
  if (n <= k) return y;
  const vec<T> totals = m.gather_strided(m.shift(y, 1, T{0}), 0, k, ceil_div(n, k));
  const vec<T> carry = scan_level(m, totals, k);
  return m.add(y, m.gather(carry, m.iota(n, 0, 1, k)));
}

template <class T>
vec<T> segmented_level(machine& m, const vec<T>& x, const word_vec& f, std::int64_t k) {
  const std::int64_t n = x.size();
  const vec<T> y = m.block_segmented_prefix_sum(x, f, k);
  if (n <= k) return y;
  const word_vec headed = m.block_segmented_prefix_sum(f, f, k);
  const std::int64_t blocks = ceil_div(n, k);
  const vec<T> tails = m.gather_strided(m.shift(y, 1, T{0}), 0, k, blocks);
  const word_vec heads = m.gather_strided(m.shift(headed, 1, word{1}), 0, k, blocks);
  const vec<T> carry = segmented_level(m, tails, heads, k);
  const vec<T> spread = m.gather(carry, m.iota(n, 0, 1, k));
  return m.add(y, m.select(m.logic_not01(headed), spread, T{0}));
}

// The ledger of scan_level / segmented_level, instruction for instruction; returns the depth of
// the output given the depths of the inputs.
std::int64_t scan_level_cost(detail::cost_tally& c, std::int64_t n, std::int64_t k, std::int64_t dx) {
  const std::int64_t y = c.vcu(n * k, {dx}, n);  // a block prefix: k operations per element
  if (n <= k) return y;
  const std::int64_t blocks = ceil_div(n, k);
  const std::int64_t totals = c.vcu(blocks, {c.vcu(n, {y})});
  const std::int64_t carry = scan_level_cost(c, blocks, k, totals);
  return c.vcu(n, {y, c.vcu(n, {carry, c.vcu(n, {0})})});
}

std::int64_t segmented_level_cost(detail::cost_tally& c, std::int64_t n, std::int64_t k, std::int64_t dx,
                                  std::int64_t df) {
  const std::int64_t y = c.vcu(n * k, {dx, df}, n);  // block prefixes: k operations per element
  if (n <= k) return y;
  const std::int64_t headed = c.vcu(n * k, {df}, n);
  const std::int64_t blocks = ceil_div(n, k);
  const std::int64_t tails = c.vcu(blocks, {c.vcu(n, {y})});
  const std::int64_t heads = c.vcu(blocks, {c.vcu(n, {headed})});
  const std::int64_t carry = segmented_level_cost(c, blocks, k, tails, heads);
  const std::int64_t spread = c.vcu(n, {carry, c.vcu(n, {0})});
  return c.vcu(n, {y, c.vcu(n, {c.vcu(n, {headed}), spread})});
}

}  // namespace

template <class T>
vec<T> iterated_addition_scan(machine& m, const vec<T>& x) {
  if (x.size() <= 1) return x;
  const auto tag = m.region("iterated-addition-scan");
  return scan_level(m, x, iterated_addition_block(x.size()));
}

template <class T>
vec<T> iterated_addition_segmented_scan(machine& m, const vec<T>& x, const word_vec& f) {
  if (x.size() != f.size())
    throw model_error("iterated_addition_segmented_scan: x has " + std::to_string(x.size()) + " values but f has " +
                      std::to_string(f.size()) + " flags");
  if (x.size() == 0) return x;
  const auto tag = m.region("iterated-addition-segmented-scan");
  return segmented_level(m, x, f, iterated_addition_block(x.size()));
}

cost_prediction iterated_addition_scan_predicted_cost(std::int64_t n, int s) {
  if (n < 0 || s < 2) throw model_error("iterated_addition_scan_predicted_cost: need n >= 0 and s >= 2");
  detail::cost_tally c{s, {}};
  c.p.formula = "k = max(2, ceil(log2 n)), L = ceil(log_k n), n_j = ceil(n/k^j): VCU 6(L-1)+1 (n<=1: 0), "
                "depth 5(L-1)+1, work n_{L-1} k + sum_{j<L-1} (n_j (k+4) + n_{j+1})";
  if (n >= 2) scan_level_cost(c, n, iterated_addition_block(n), 0);
  return c.p;
}

cost_prediction iterated_addition_segmented_scan_predicted_cost(std::int64_t n, int s) {
  if (n < 0 || s < 2) throw model_error("iterated_addition_segmented_scan_predicted_cost: need n >= 0 and s >= 2");
  detail::cost_tally c{s, {}};
  c.p.formula = "k = max(2, ceil(log2 n)), L = ceil(log_k n), n_j = ceil(n/k^j): VCU 11(L-1)+1 (n=0: 0), "
                "depth 6(L-1)+1, work n_{L-1} k + sum_{j<L-1} (n_j (2k+7) + 2 n_{j+1})";
  if (n >= 1) segmented_level_cost(c, n, iterated_addition_block(n), 0, 0);
  return c.p;
}

template vec<word> iterated_addition_scan<word>(machine&, const vec<word>&);
template vec<real> iterated_addition_scan<real>(machine&, const vec<real>&);
template vec<word> iterated_addition_segmented_scan<word>(machine&, const vec<word>&, const word_vec&);
template vec<real> iterated_addition_segmented_scan<real>(machine&, const vec<real>&, const word_vec&);

}  // namespace mmv
