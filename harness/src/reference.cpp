// The simulator's sequential references and exact_sum's products (reference.hpp), all through
// the one segmented accumulation.
#include "mmvram/harness/reference.hpp"

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

template std::vector<std::int64_t> inclusive_scan(const std::vector<std::int64_t>&);
template std::vector<double> inclusive_scan(const std::vector<double>&);
template std::vector<std::int64_t> segmented_scan(const std::vector<std::int64_t>&, const std::vector<std::int64_t>&);
template std::vector<double> segmented_scan(const std::vector<double>&, const std::vector<std::int64_t>&);
template std::vector<std::int64_t> segmented_sum(const std::vector<std::int64_t>&, const std::vector<std::int64_t>&);
template std::vector<double> segmented_sum(const std::vector<double>&, const std::vector<std::int64_t>&);

}  // namespace mmv::reference
