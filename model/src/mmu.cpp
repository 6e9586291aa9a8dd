// The MMU instruction: one (rows x s) by (s x s) matrix product. Integer products are exact
// (64-bit when the operands' magnitudes rule out overflow, 128-bit otherwise) and their
// results are checked against B bits; real products are accumulated in double and rounded
// to the machine's format once per output element.
#include "mmvram/model/machine.hpp"

#include "word_arith.hpp"

#include <cmath>
#include <vector>

namespace mmv {

namespace {

struct weight_entry {
  std::int64_t k, j;  // w[k][j] != 0
};

template <class T>
std::vector<weight_entry> nonzeros(const array<T>& w, std::int64_t s) {
  std::vector<weight_entry> nz;
  for (std::int64_t k = 0; k < s; ++k)
    for (std::int64_t j = 0; j < s; ++j)
      if (w[k * s + j] != T{0}) nz.push_back({k, j});
  return nz;
}

// out[r*s + j] = sum_k a[r*s + k] * w[k*s + j], skipping zero weights (same result, less time).
template <class Acc, class T>
array<Acc> sparse_product(const array<T>& a, const array<T>& w, std::int64_t s,
                          const std::vector<weight_entry>& nz) {
  const std::int64_t rows = a.size() / s;
  array<Acc> out = array<Acc>::Zero(a.size());
  for (std::int64_t r = 0; r < rows; ++r) {
    const T* in = a.data() + r * s;
    Acc* o = out.data() + r * s;
    for (const auto& e : nz) o[e.j] += Acc(in[e.k]) * Acc(w[e.k * s + e.j]);
  }
  return out;
}

}  // namespace

template <class T>
vec<T> machine::mmu(const vec<T>& a, const vec<T>& w) {
  require_type<T>();
  const std::int64_t s = config_.s;
  if (w.size() != s * s)
    throw model_error("mmu: weight has " + std::to_string(w.size()) + " words, expected s*s = " +
                      std::to_string(s * s));
  if (a.size() % s != 0)
    throw model_error("mmu: operand length " + std::to_string(a.size()) +
                      " is not a multiple of s = " + std::to_string(s) + " (pad it first)");
  const auto &x = a.values(), &y = w.values();
  const auto nz = nonzeros(y, s);
  array<T> out;
  if constexpr (std::is_same_v<T, word>) {
    // Magnitudes in long double: |INT64_MIN| does not fit in a word.
    const auto max_abs = [](const array<word>& v) {
      return v.size() ? v.template cast<long double>().abs().maxCoeff() : 0.0L;
    };
    const long double bound = max_abs(x) * max_abs(y) * s;
    if (bound < 0x1p62L) {
      out = sparse_product<word>(x, y, s, nz);
    } else {
      const array<detail::wide> exact = sparse_product<detail::wide>(x, y, s, nz);
      out.resize(exact.size());
      const detail::wide lo = word_min(), hi = word_max();
      for (Eigen::Index i = 0; i < exact.size(); ++i) {
        if (exact[i] < lo || exact[i] > hi)
          throw width_error("mmu", i, detail::to_string(exact[i]), word_bits());
        out[i] = static_cast<word>(exact[i]);
      }
    }
    check_width("mmu", out);
  } else {
    out = sparse_product<real>(x, y, s, nz);
    detail::round_to_format(out, config_.format);
  }
  return retire<T>("mmu", unit::mmu, cost_of_mmu(a.size() / s, s), std::move(out), {a.node_, w.node_});
}

template vec<word> machine::mmu<word>(const vec<word>&, const vec<word>&);
template vec<real> machine::mmu<real>(const vec<real>&, const vec<real>&);

}  // namespace mmv
