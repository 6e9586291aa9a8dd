// Sequential references: plain loops, independent of the machine, that every algorithm is
// checked against. Position 0 always starts a segment, whatever flags[0] holds. Integer
// references are exact; real ones carry every partial result as an exact_sum and round it once,
// so each output is within u |out| + n^2 u^2 M of the exact value (M the magnitudes it sums,
// u = 2^-53): far below the tolerance of any algorithm (registry.cpp).
#pragma once
#include <cstdint>
#include <vector>

namespace mmv::reference {

// A double-double accumulator: the sum is hi + lo, kept by error-free transformations (TwoSum,
// and fma for products), so n additions of terms whose magnitudes sum to M err by at most
// n^2 u^2 M before value() rounds it once.
struct exact_sum {
  double hi = 0, lo = 0;
  void add(double x);
  void add_product(double a, double b);
  // hi + lo times a, plus nothing: the recurrence step h = a h of the decayed scan.
  void scale(double a);
  double value() const { return hi + lo; }
};

// out[i] = x[0] + ... + x[i].
template <class T> std::vector<T> inclusive_scan(const std::vector<T>& x);
// out[i] = x[j] + ... + x[i], j = the start of i's segment.
template <class T> std::vector<T> segmented_scan(const std::vector<T>& x, const std::vector<std::int64_t>& flags);
// One sum per segment, in order.
template <class T> std::vector<T> segmented_sum(const std::vector<T>& x, const std::vector<std::int64_t>& flags);
// h[j] = a[j] * h[j-1] + b[j], with h[j] = b[j] where flags[j] = 1 (and at j = 0); h carried as
// an exact_sum, so each output is within u |h| + 4 n^2 u^2 H of the exact one (H the same
// recurrence on |a|, |b|).
std::vector<double> decayed_scan(const std::vector<double>& a, const std::vector<double>& b,
                                 const std::vector<std::int64_t>& flags);

}  // namespace mmv::reference
