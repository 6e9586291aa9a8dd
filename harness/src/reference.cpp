// The simulator's sequential references and exact_sum's products (reference.hpp): the scans
// through the one segmented accumulation, the applications' as plain loops.
#include "mmvram/harness/reference.hpp"

#include "mmvram/algorithms/applications.hpp"

#include <cmath>
#include <iterator>
#include <stdexcept>

namespace mmv::reference {

namespace {
void require_lengths(std::size_t a, std::size_t b) {
  if (a != b) throw std::invalid_argument("reference: values and flags differ in length");
}
}  // namespace

void exact_sum::add_product(double a, double b) {  // TwoProduct: p + e == a b exactly
  const double p = a * b, e = std::fma(a, b, -p);
  add(p);
  add(e);
}

void exact_sum::scale(double a) {
  const double p = a * hi, e = std::fma(a, hi, -p), l = a * lo;
  hi = 0, lo = 0;
  add(p);
  add(e);
  add(l);
}

template <class T>
std::vector<T> inclusive_scan(const std::vector<T>& x) {
  std::vector<T> out(x.size());
  running_sum<T> acc;
  walk_segments(x.data(), static_cast<const std::int64_t*>(nullptr), 0, std::ssize(x), acc,
                [&](std::int64_t i, bool, const running_sum<T>& s) { out[i] = s.value(); });
  return out;
}

template <class T>
std::vector<T> segmented_scan(const std::vector<T>& x, const std::vector<std::int64_t>& flags) {
  require_lengths(x.size(), flags.size());
  std::vector<T> out(x.size());
  running_sum<T> acc;
  walk_segments(x.data(), flags.data(), 0, std::ssize(x), acc,
                [&](std::int64_t i, bool, const running_sum<T>& s) { out[i] = s.value(); });
  return out;
}

template <class T>
std::vector<T> segmented_sum(const std::vector<T>& x, const std::vector<std::int64_t>& flags) {
  require_lengths(x.size(), flags.size());
  std::vector<T> out;
  running_sum<T> acc;
  const std::int64_t n = std::ssize(x);
  walk_segments(x.data(), flags.data(), 0, n, acc, [&](std::int64_t i, bool, const running_sum<T>& s) {
    if (i + 1 == n || starts_segment(flags.data(), i + 1)) out.push_back(s.value());
  });
  return out;
}

std::vector<double> decayed_scan(const std::vector<double>& a, const std::vector<double>& b,
                                 const std::vector<std::int64_t>& flags) {
  require_lengths(a.size(), b.size());
  require_lengths(a.size(), flags.size());
  std::vector<double> h(a.size());
  exact_sum acc;
  for (std::size_t j = 0; j < a.size(); ++j) {
    if (starts_segment(flags.data(), static_cast<std::int64_t>(j))) acc = {};
    else acc.scale(a[j]);
    acc.add(b[j]);
    h[j] = acc.value();
  }
  return h;
}

std::vector<std::int64_t> spmv(const csr_matrix& a, const std::vector<std::int64_t>& v) {
  std::vector<std::int64_t> y(static_cast<std::size_t>(a.rows), 0);
  for (std::int64_t r = 0; r < a.rows; ++r)
    for (auto k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) y[r] += static_cast<std::int64_t>(a.values[k]) * v[a.col_idx[k]];
  return y;
}

std::vector<double> spmv(const csr_matrix& a, const std::vector<double>& v) {
  std::vector<double> y(static_cast<std::size_t>(a.rows), 0.0);
  for (std::int64_t r = 0; r < a.rows; ++r) {
    exact_sum row;
    for (auto k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) row.add_product(a.values[k], v[a.col_idx[k]]);
    y[r] = row.value();
  }
  return y;
}

double spmv_magnitude(const csr_matrix& a, const std::vector<double>& v) {
  double mag = 0;
  for (std::int64_t r = 0; r < a.rows; ++r)
    for (auto k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) mag += std::fabs(a.values[k] * v[a.col_idx[k]]);
  return mag;
}

std::vector<std::int64_t> elementwise_product(const std::vector<std::int64_t>& x, const std::vector<std::int64_t>& y) {
  std::vector<std::int64_t> out(x.size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = x[i] * y[i];
  return out;
}

std::vector<std::int64_t> matrix_product(const std::vector<std::int64_t>& x, const std::vector<std::int64_t>& y,
                                         std::int64_t n) {
  std::vector<std::int64_t> out(static_cast<std::size_t>(n * n), 0);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t k = 0; k < n; ++k)
      for (std::int64_t j = 0; j < n; ++j) out[i * n + j] += x[i * n + k] * y[k * n + j];
  return out;
}

template std::vector<std::int64_t> inclusive_scan(const std::vector<std::int64_t>&);
template std::vector<double> inclusive_scan(const std::vector<double>&);
template std::vector<std::int64_t> segmented_scan(const std::vector<std::int64_t>&, const std::vector<std::int64_t>&);
template std::vector<double> segmented_scan(const std::vector<double>&, const std::vector<std::int64_t>&);
template std::vector<std::int64_t> segmented_sum(const std::vector<std::int64_t>&, const std::vector<std::int64_t>&);
template std::vector<double> segmented_sum(const std::vector<double>&, const std::vector<std::int64_t>&);

}  // namespace mmv::reference
