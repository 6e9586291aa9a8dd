#include "mmvram/harness/reference.hpp"

#include <cmath>
#include <stdexcept>
#include <type_traits>

namespace mmv::reference {

namespace {
void require_lengths(std::size_t a, std::size_t b) {
  if (a != b) throw std::invalid_argument("reference: values and flags differ in length");
}

// The running sum of one kind: exact for integers, an exact_sum for doubles.
template <class T>
struct accumulator {
  T sum{};
  void add(T x) { sum += x; }
  T value() const { return sum; }
};
template <>
struct accumulator<double> {
  exact_sum sum;
  void add(double x) { sum.add(x); }
  double value() const { return sum.value(); }
};
}  // namespace

void exact_sum::add(double x) {  // TwoSum (Knuth): s + e == hi + x exactly
  const double s = hi + x, bp = s - hi, e = (hi - (s - bp)) + (x - bp);
  hi = s;
  lo += e;
  const double t = hi + lo;  // renormalize, so lo stays below one ulp of hi
  lo = lo - (t - hi);
  hi = t;
}

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
  accumulator<T> acc;
  for (std::size_t i = 0; i < x.size(); ++i) acc.add(x[i]), out[i] = acc.value();
  return out;
}

template <class T>
std::vector<T> segmented_scan(const std::vector<T>& x, const std::vector<std::int64_t>& flags) {
  require_lengths(x.size(), flags.size());
  std::vector<T> out(x.size());
  accumulator<T> acc;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (i == 0 || flags[i]) acc = {};
    acc.add(x[i]);
    out[i] = acc.value();
  }
  return out;
}

template <class T>
std::vector<T> segmented_sum(const std::vector<T>& x, const std::vector<std::int64_t>& flags) {
  require_lengths(x.size(), flags.size());
  std::vector<T> out;
  accumulator<T> acc;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (i > 0 && flags[i]) out.push_back(acc.value());
    if (i == 0 || flags[i]) acc = {};
    acc.add(x[i]);
  }
  if (!x.empty()) out.push_back(acc.value());
  return out;
}

std::vector<double> decayed_scan(const std::vector<double>& a, const std::vector<double>& b,
                                 const std::vector<std::int64_t>& flags) {
  require_lengths(a.size(), b.size());
  require_lengths(a.size(), flags.size());
  std::vector<double> h(a.size());
  exact_sum acc;
  for (std::size_t j = 0; j < a.size(); ++j) {
    if (j == 0 || flags[j]) acc = {};
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
