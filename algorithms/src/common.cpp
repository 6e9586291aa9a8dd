#include "mmvram/algorithms/common.hpp"

#include <algorithm>
#include <vector>

namespace mmv {

std::int64_t ceil_log(std::int64_t n, std::int64_t base) {
  if (n < 1 || base < 2) throw model_error("ceil_log: need n >= 1 and base >= 2");
  std::int64_t k = 0;
  for (__int128 p = 1; p < n; p *= base) ++k;
  return k;
}

std::int64_t floor_log(std::int64_t n, std::int64_t base) {
  if (n < 1 || base < 2) throw model_error("floor_log: need n >= 1 and base >= 2");
  std::int64_t k = 0;
  for (__int128 p = base; p <= n; p *= base) ++k;
  return k;
}

namespace {
template <class T, class F>
vec<T> load_matrix(machine& m, const std::string& name, F entry) {
  const int s = m.s();
  std::vector<T> w(static_cast<std::size_t>(s) * s);
  for (int k = 0; k < s; ++k)
    for (int j = 0; j < s; ++j) w[static_cast<std::size_t>(k) * s + j] = entry(k, j) ? T{1} : T{0};
  return m.load<T>(w, name);
}
}  // namespace

template <class T>
vec<T> load_prefix_matrix(machine& m) {
  return load_matrix<T>(m, "const:prefix-ones", [](int k, int j) { return k <= j; });
}

template <class T>
vec<T> load_carry_matrix(machine& m) {
  return load_matrix<T>(m, "const:carry", [](int k, int j) { return k == j || (k == 0 && j > 0); });
}

template <class T>
vec<T> load_row_total_matrix(machine& m) {
  const int last = m.s() - 1;
  return load_matrix<T>(m, "const:row-total", [last](int, int j) { return j == last; });
}

template vec<word> load_prefix_matrix<word>(machine&);
template vec<real> load_prefix_matrix<real>(machine&);
template vec<word> load_carry_matrix<word>(machine&);
template vec<real> load_carry_matrix<real>(machine&);
template vec<word> load_row_total_matrix<word>(machine&);
template vec<real> load_row_total_matrix<real>(machine&);

namespace detail {

cost mmu_price(std::int64_t rows, std::int64_t s) {
  return price_of(op_code::mmu, operand_sizes{rows * s, rows * s, s * s, s});
}

std::int64_t cost_tally::vcu(std::int64_t work, std::initializer_list<std::int64_t> inputs, std::int64_t length) {
  ++p.vcu_steps;
  p.vcu_work += work;
  p.largest_vector = std::max(p.largest_vector, length < 0 ? work : length);
  const std::int64_t d = std::max(inputs) + 1;
  p.depth = std::max(p.depth, d);
  return d;
}

std::int64_t cost_tally::mmu(std::int64_t rows, std::initializer_list<std::int64_t> inputs) {
  const cost c = mmu_price(rows, s);
  p.mmu_steps += c.steps;
  p.tile_products += c.tile_products;
  p.multiply_adds += c.multiply_adds;
  p.largest_vector = std::max(p.largest_vector, rows * s);
  const std::int64_t d = std::max(inputs) + 1;
  p.depth = std::max(p.depth, d);
  return d;
}

std::int64_t cost_tally::call(const cost_prediction& sub, std::int64_t depth) {
  p.mmu_steps += sub.mmu_steps;
  p.vcu_steps += sub.vcu_steps;
  p.tile_products += sub.tile_products;
  p.multiply_adds += sub.multiply_adds;
  p.vcu_work += sub.vcu_work;
  p.largest_vector = std::max(p.largest_vector, sub.largest_vector);
  p.depth = std::max(p.depth, depth);
  return depth;
}

}  // namespace detail

}  // namespace mmv
