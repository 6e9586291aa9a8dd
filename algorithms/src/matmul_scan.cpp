// MatMulScan (Zouzias & McColl): an s-ary Brent–Kung scan whose in-row arithmetic runs on the
// MMU. Level j holds L_j = n' / s^j values as rows of s. With k = ceil(log_s n),
// c = ceil(n / s^(k-1)) in [2, s] and n' = c s^(k-1) (n zero-padded), for n > s:
//   1. pad      x to n' (one resize, only when n' != n)                     VCU 0/1 step
//   2. up-sweep j = 0..k-2: u_j = t_j * X (slot 0 of each row = row total,
//               slot i >= 1 = exclusive in-row prefix); t_{j+1} = the totals
//               (gather_strided, stride s)                                   MMU k-1, VCU k-1
//   3. top      e = t_{k-1} * E (exclusive in-row prefix; t_{k-1} has c <= s
//               values, padded to s and truncated back when c < s)           MMU 1, VCU 0/2
//   4. down     j = k-2..0: write the exclusive carries e into slot 0 of the
//               rows of u_j (scatter at 0, s, 2s, ...), e = that * carry matrix
//               B_s: row [C, p_1..p_{s-1}] -> [C, C+p_1, ..., C+p_{s-1}]      MMU k-1, VCU 2(k-1)
//   5. finish   inclusive = exclusive (truncated to n) + x                    VCU 1/2
// n <= s is one row: pad, one product with the prefix matrix L_s, truncate. n <= 1: x itself.
// With s = 2 every phase is Blelloch's (Brent–Kung's) scan step for step.
// matmul_scan_vcu_top: the same, except when n is not a power of s: the top level (c values) is an
// exclusive Hillis–Steele scan on the VCU (shift, then 2 ceil(log2 c) steps) instead of a product,
// and n < s is Hillis–Steele alone, so the MMU steps are 2 floor(log_s n) for every n.
#include "mmvram/algorithms/scan.hpp"

#include <string>
#include <vector>

namespace mmv {

namespace {

// Level shape shared by the algorithm and its cost formula (n >= 2).
struct level_shape {
  std::int64_t k;       // MMU levels: smallest k with s^k >= n
  std::int64_t c;       // values at the top level, 2 <= c <= s
  std::int64_t padded;  // n' = c s^(k-1)
};

level_shape shape_of(std::int64_t n, std::int64_t s) {
  const std::int64_t k = ceil_log(n, s);
  std::int64_t below = 1;  // s^(k-1)
  for (std::int64_t j = 1; j < k; ++j) below *= s;
  const std::int64_t c = ceil_div(n, below);
  return {k, c, c * below};
}

// Up-sweep weight: W[k][0] = 1 (row total in slot 0), W[k][j] = [k < j] for j >= 1. It is the
// prefix matrix L_s with its columns rotated by one: the total lands where the carry will go.
template <class T>
vec<T> load_total_exclusive_matrix(machine& m) {
  const int s = m.s();
  std::vector<T> w(static_cast<std::size_t>(s) * s, T{0});
  for (int k = 0; k < s; ++k)
    for (int j = 0; j < s; ++j) w[static_cast<std::size_t>(k) * s + j] = (j == 0 || k < j) ? T{1} : T{0};
  return m.load<T>(w, "const:total-exclusive");
}

// Top weight: W[k][j] = [k < j], the exclusive in-row prefix sum.
template <class T>
vec<T> load_exclusive_prefix_matrix(machine& m) {
  const int s = m.s();
  std::vector<T> w(static_cast<std::size_t>(s) * s, T{0});
  for (int k = 0; k < s; ++k)
    for (int j = k + 1; j < s; ++j) w[static_cast<std::size_t>(k) * s + j] = T{1};
  return m.load<T>(w, "const:exclusive-prefix");
}

// True when n >= 1 is a power of s.
bool is_power_of(std::int64_t n, std::int64_t s) {
  std::int64_t p = 1;
  while (p < n) p *= s;
  return p == n;
}

template <class T>
vec<T> matmul_scan_impl(machine& m, const vec<T>& x, bool vcu_top) {
  const std::int64_t n = x.size(), s = m.s();
  if (n <= 1) return x;
  const auto tag = m.region(vcu_top ? "matmul-scan-vcu-top" : "matmul-scan");
  if (vcu_top && n < s) return hillis_steele_scan(m, x);
  if (n <= s) {  // one row: pad, in-row prefix on the MMU, truncate
    const vec<T> row = n < s ? m.resize(x, s, T{0}) : x;
    const vec<T> y = m.mmu(row, load_prefix_matrix<T>(m));
    return n < s ? m.resize(y, n, T{0}) : y;
  }
  const level_shape g = shape_of(n, s);
  vcu_top = vcu_top && !is_power_of(n, s);

  // 1-2. Pad, then up-sweep: u[j] keeps each level's exclusive prefixes for the down-sweep.
  std::vector<vec<T>> u;
  vec<T> t = g.padded != n ? m.resize(x, g.padded, T{0}) : x;
  {
    const auto up = m.region("up");
    const vec<T> total_exclusive = load_total_exclusive_matrix<T>(m);
    for (std::int64_t j = 0; j + 1 < g.k; ++j) {
      u.push_back(m.mmu(t, total_exclusive));
      t = m.gather_strided(u.back(), 0, s, u.back().size() / s);
    }
  }
  // 3. Top: exclusive scan of the c <= s top totals in one row.
  vec<T> carry;
  if (vcu_top) {
    const auto top = m.region("top");
    carry = hillis_steele_scan(m, m.shift(t, 1, T{0}));
  } else {
    const auto top = m.region("top");
    const vec<T> row = g.c < s ? m.resize(t, s, T{0}) : t;
    carry = m.mmu(row, load_exclusive_prefix_matrix<T>(m));
    if (g.c < s) carry = m.resize(carry, g.c, T{0});
  }
  // 4. Down-sweep: carries into slot 0 of each row, B_s adds them to the row's prefixes.
  {
    const auto down = m.region("down");
    const vec<T> carry_matrix = load_carry_matrix<T>(m);
    for (std::int64_t j = g.k - 2; j >= 0; --j) {
      const word_vec slot0 = m.iota(carry.size(), 0, s);
      carry = m.mmu(m.scatter(u[static_cast<std::size_t>(j)], slot0, carry), carry_matrix);
    }
  }
  // 5. Inclusive = exclusive + x.
  const auto finish = m.region("finish");
  if (g.padded != n) carry = m.resize(carry, n, T{0});
  return m.add(carry, x);
}

cost_prediction predicted_cost(std::int64_t n, std::int64_t s, bool vcu_top) {
  cost_prediction p;
  p.formula = "n<=1: 0; n<=s: MMU 1, VCU 2[n<s], depth 1+2[n<s]; else k=ceil(log_s n), "
              "c=ceil(n/s^(k-1)), n'=c s^(k-1): MMU 2k-1, VCU 3k-2+2[n'!=n]+2[c<s], "
              "depth 4k-2+2[n'!=n]+2[c<s], tiles 2(c(s^(k-2)-1)/(s-1)+1)+1";
  if (n <= 1) return p;
  if (vcu_top && n < s) return hillis_steele_predicted_cost(n, static_cast<int>(s));
  const auto mmu_step = [&](std::int64_t rows) {
    const cost c = detail::mmu_price(rows, s);
    p.mmu_steps += c.steps;
    p.tile_products += c.tile_products;
    p.multiply_adds += c.multiply_adds;
  };
  const auto vcu_step = [&](std::int64_t work) {
    ++p.vcu_steps;
    p.vcu_work += work;
  };
  if (n <= s) {
    mmu_step(1);
    if (n < s) vcu_step(s), vcu_step(n);
    p.depth = 1 + (n < s ? 2 : 0);
    return p;
  }
  const level_shape g = shape_of(n, s);
  vcu_top = vcu_top && !is_power_of(n, s);
  const bool pad = g.padded != n, top_pad = g.c < s && !vcu_top;
  if (pad) vcu_step(g.padded);
  std::int64_t length = g.padded;  // L_j
  for (std::int64_t j = 0; j + 1 < g.k; ++j, length /= s) {
    mmu_step(length / s);   // up-sweep product
    vcu_step(length / s);   // gather of the totals
    mmu_step(length / s);   // down-sweep product
    vcu_step(length / s);   // iota of slot-0 addresses
    vcu_step(length);       // scatter (work = destination length)
  }
  const std::int64_t top_rounds = vcu_top ? ceil_log(g.c, 2) : 0;
  if (vcu_top) {  // shift, then Hillis-Steele on the c top totals
    vcu_step(g.c);
    for (std::int64_t r = 0; r < 2 * top_rounds; ++r) vcu_step(g.c);
  } else {
    mmu_step(1);
  }
  if (top_pad) vcu_step(s), vcu_step(g.c);
  if (pad) vcu_step(n);
  vcu_step(n);  // final add
  p.depth = 4 * g.k - 2 + (pad ? 2 : 0) + (top_pad ? 2 : 0) + 2 * top_rounds;
  return p;
}

}  // namespace

template <class T>
vec<T> matmul_scan(machine& m, const vec<T>& x) {
  return matmul_scan_impl(m, x, false);
}

template <class T>
vec<T> matmul_scan_vcu_top(machine& m, const vec<T>& x) {
  return matmul_scan_impl(m, x, true);
}

cost_prediction matmul_scan_predicted_cost(std::int64_t n, int s) {
  if (n < 0 || s < 2) throw model_error("matmul_scan_predicted_cost: need n >= 0 and s >= 2");
  return predicted_cost(n, s, false);
}

cost_prediction matmul_scan_vcu_top_predicted_cost(std::int64_t n, int s) {
  if (n < 0 || s < 2) throw model_error("matmul_scan_vcu_top_predicted_cost: need n >= 0 and s >= 2");
  cost_prediction p = predicted_cost(n, s, true);
  p.formula = "as matmul_scan when n is a power of s; n < s: Hillis-Steele; otherwise the top product "
              "(and its 2[c<s] resizes) replaced by 1 + 2 ceil(log2 c) VCU steps: MMU 2 floor(log_s n), "
              "depth 4k-2+2[n'!=n]+2 ceil(log2 c)";
  return p;
}

template vec<word> matmul_scan<word>(machine&, const vec<word>&);
template vec<real> matmul_scan<real>(machine&, const vec<real>&);
template vec<word> matmul_scan_vcu_top<word>(machine&, const vec<word>&);
template vec<real> matmul_scan_vcu_top<real>(machine&, const vec<real>&);

}  // namespace mmv
