// Sequential references: plain loops, independent of the machine, that every algorithm and every
// fused kernel is checked against. Position 0 always starts a segment, whatever flags[0] holds.
// One segmented accumulation (running_sum, walk_segments) computes them all: integers exact
// (int32 wrapping as the kernels' words do), reals carried as an exact_sum and rounded once, so
// each output is within u |out| + n^2 u^2 M of the exact value (M the magnitudes it sums,
// u = 2^-53): far below the tolerance of any algorithm (registry.cpp) or kernel (tolerance.hpp).
#pragma once
#include <cstdint>
#include <type_traits>
#include <vector>

namespace mmv {
struct csr_matrix;  // mmvram/algorithms/applications.hpp
}  // namespace mmv

namespace mmv::reference {

// A double-double accumulator: the sum is hi + lo, kept by error-free transformations (TwoSum,
// and fma for products), so n additions of terms whose magnitudes sum to M err by at most
// n^2 u^2 M before value() rounds it once.
// Finite terms only: an inf makes the sum NaN. add() is inline: the kernels' checks call it per item.
struct exact_sum {
  double hi = 0, lo = 0;
  void add(double x) {  // TwoSum (Knuth): s + e == hi + x exactly
    const double s = hi + x, bp = s - hi, e = (hi - (s - bp)) + (x - bp);
    hi = s;
    lo += e;
    const double t = hi + lo;  // renormalize, so lo stays below one ulp of hi
    lo = lo - (t - hi);
    hi = t;
  }
  void add_product(double a, double b);
  // hi + lo times a, plus nothing: the recurrence step h = a h of the decayed scan.
  void scale(double a);
  double value() const { return hi + lo; }
};

// ---- The one segmented accumulation ----

// Whether position i starts a segment: i == 0 or flags[i] != 0 (flags == nullptr: one segment).
// Any flag type: the simulator's int64 words, the kernels' bytes.
template <class F>
constexpr bool starts_segment(const F* flags, std::int64_t i) {
  return i == 0 || (flags != nullptr && flags[i] != 0);
}

namespace detail {
template <class T> struct sum_store { using type = std::make_unsigned_t<T>; };
template <> struct sum_store<float> { using type = exact_sum; };
template <> struct sum_store<double> { using type = exact_sum; };
}  // namespace detail

// The running sum of one segment for value type T: integers modulo 2^bits (int32 wraps around as
// the kernels' int32 does; int64 is exact wherever the sum fits the word, never UB), float and
// double as an exact_sum, read as the double it rounds to. Default-constructed: empty (0).
template <class T>
class running_sum {
  static constexpr bool real = std::is_floating_point_v<T>;

 public:
  using value_type = std::conditional_t<real, double, T>;

  // Adds one item.
  void add(T x) {
    if constexpr (real) sum_.add(static_cast<double>(x));
    else sum_ += static_cast<typename detail::sum_store<T>::type>(x);
  }
  // Adds the sum of a later run of the same segment (joins two pieces walked apart, in order).
  void add(const running_sum& later) {
    if constexpr (real) sum_.add(later.sum_.hi), sum_.add(later.sum_.lo);
    else sum_ += later.sum_;
  }
  // The sum so far: exact for integers (modulo 2^bits), rounded once to double for reals.
  value_type value() const {
    if constexpr (real) return sum_.value();
    else return static_cast<T>(sum_);
  }

 private:
  typename detail::sum_store<T>::type sum_{};
};

// Walks positions [from, to) of x in order: at each segment start acc restarts, then it takes
// x[i], and visit(i, starts, acc) sees the inclusive segmented sum through i (starts: i starts a
// segment). acc comes in holding the open segment's sum over its items before `from` (empty at 0)
// and leaves holding it through to - 1, so chunks walked apart join by running_sum::add.
template <class T, class F, class Visit>
void walk_segments(const T* x, const F* flags, std::int64_t from, std::int64_t to, running_sum<T>& acc,
                   Visit&& visit) {
  for (std::int64_t i = from; i < to; ++i) {
    const bool starts = starts_segment(flags, i);
    if (starts) acc = {};
    acc.add(x[i]);
    visit(i, starts, static_cast<const running_sum<T>&>(acc));
  }
}

// ---- The simulator's references, on its words (int64) and reals (double) ----

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

// ---- The applications' references (spmv, elementwise_product, matrix_product), plain loops ----

// y = A v on words: y[r] = the sum over row r's entries k of int64(values[k]) * v[col_idx[k]],
// in entry order (0 for an empty row). The caller ensures no product or sum overflows int64
// (the runners check after the run, whose width_error would have stopped it). v.size() >= A.cols.
std::vector<std::int64_t> spmv(const csr_matrix& a, const std::vector<std::int64_t>& v);
// y = A v on reals: each row's exact products (exact_sum::add_product) rounded once to double
// (0 for an empty row). v.size() >= A.cols.
std::vector<double> spmv(const csr_matrix& a, const std::vector<double>& v);
// The sum over all of A's entries, row by row in entry order, of |values[k] * v[col_idx[k]]|
// (each product rounded to double): the magnitude SpMV's float tolerance scales with.
double spmv_magnitude(const csr_matrix& a, const std::vector<double>& v);
// out[i] = x[i] * y[i] (y.size() >= x.size(); no product may overflow int64).
std::vector<std::int64_t> elementwise_product(const std::vector<std::int64_t>& x, const std::vector<std::int64_t>& y);
// The n x n product X Y of row-major x and y (n^2 entries each): out[i n + j] = the sum over k
// in order of x[i n + k] * y[k n + j] (no product or partial sum may overflow int64).
std::vector<std::int64_t> matrix_product(const std::vector<std::int64_t>& x, const std::vector<std::int64_t>& y,
                                         std::int64_t n);

}  // namespace mmv::reference
