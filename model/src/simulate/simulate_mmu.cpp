// Simulate backend: the MMU's (rows x s) by (s x s) product. Integer products are exact (64-bit
// when the operands' magnitudes rule out overflow, 128-bit otherwise) and width-checked; real
// products accumulate in double and are rounded to the format once per output element.
#include "simulate_backend.hpp"

#include <vector>

namespace mmv::simulate {

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
array<Acc> sparse_product(const array<T>& a, const array<T>& w, std::int64_t s, const std::vector<weight_entry>& nz) {
  const std::int64_t rows = a.size() / s;
  array<Acc> out = array<Acc>::Zero(a.size());
  for (std::int64_t r = 0; r < rows; ++r) {
    const T* in = a.data() + r * s;
    Acc* o = out.data() + r * s;
    for (const auto& e : nz) o[e.j] += Acc(in[e.k]) * Acc(w[e.k * s + e.j]);
  }
  return out;
}

// The exact 128-bit product for operands whose magnitudes could overflow 64 bits; a sum beyond
// 128 bits (far outside any B <= 64) is a width_error at that element, never a wrapped value.
array<detail::wide> checked_wide_product(const array<word>& a, const array<word>& w, std::int64_t s,
                                         const std::vector<weight_entry>& nz, int bits) {
  const std::int64_t rows = a.size() / s;
  array<detail::wide> out = array<detail::wide>::Zero(a.size());
  for (std::int64_t r = 0; r < rows; ++r)
    for (const auto& e : nz) {
      detail::wide& o = out[r * s + e.j];
      detail::wide term;
      if (__builtin_mul_overflow(detail::wide(a[r * s + e.k]), detail::wide(w[e.k * s + e.j]), &term) ||
          __builtin_add_overflow(o, term, &o))
        throw width_error("mmu", r * s + e.j, "beyond 2^127", bits);
    }
  return out;
}

}  // namespace

template <class T>
handle<T> simulate_backend::do_mmu(const buffer<T>& a_buf, const buffer<T>& w_buf) {
  const std::int64_t s = c_.s;
  const auto &x = host(a_buf), &y = host(w_buf);
  const auto nz = nonzeros(y, s);
  array<T> out;
  if constexpr (std::is_same_v<T, word>) {
    // Magnitudes in long double: |INT64_MIN| does not fit in a word.
    const auto max_abs = [](const array<word>& v) { return v.size() ? v.template cast<long double>().abs().maxCoeff() : 0.0L; };
    if (max_abs(x) * max_abs(y) * s < 0x1p62L) {
      out = sparse_product<word>(x, y, s, nz);
    } else {
      const array<detail::wide> exact = checked_wide_product(x, y, s, nz, c_.word_bits);
      out.resize(exact.size());
      for (Eigen::Index i = 0; i < exact.size(); ++i) {
        if (!vcu::fits(exact[i], c_.word_bits))
          throw width_error("mmu", i, detail::to_string(exact[i]), c_.word_bits);
        out[i] = static_cast<word>(exact[i]);
      }
    }
    check_width("mmu", out);
  } else {
    out = sparse_product<real>(x, y, s, nz);
    settle("mmu", out);
  }
  return wrap<T>(std::move(out));
}

template handle<word> simulate_backend::do_mmu<word>(const buffer<word>&, const buffer<word>&);
template handle<real> simulate_backend::do_mmu<real>(const buffer<real>&, const buffer<real>&);

}  // namespace mmv::simulate
