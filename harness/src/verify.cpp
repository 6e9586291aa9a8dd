// The verifier: a run's result against its sequential reference (the tolerance: tolerance.cpp).
#include "mmvram/harness/verify.hpp"

#include "mmvram/algorithms/common.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <type_traits>

namespace mmv {

std::string format_value(word v, number_format) { return std::to_string(v); }

std::string format_value(real v, number_format format) {
  char buf[64];
  const auto r = format == number_format::float32 ? std::to_chars(buf, buf + sizeof buf, static_cast<float>(v))
                                                  : std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

double abs_sum(const std::vector<real>& x) {
  double s = 0;
  for (auto v : x) s += std::fabs(v);
  return s;
}

std::vector<real> held(std::vector<real> x, number_format f) {
  if (f == number_format::float32)
    for (auto& v : x) v = static_cast<float>(v);
  return x;
}
const std::vector<word>& held(const std::vector<word>& x, number_format) { return x; }

template <class T>
std::string first_mismatch(const std::vector<T>& got, const std::vector<T>& want, double tol, number_format f) {
  if (got.size() != want.size())
    return "output has " + std::to_string(got.size()) + " values, the reference " + std::to_string(want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double err = std::fabs(static_cast<double>(got[i]) - static_cast<double>(want[i]));
    if (std::is_same_v<T, word> ? got[i] == want[i] : err <= tol) continue;
    return "index " + std::to_string(i) + ": got " + format_value(got[i], f) + ", expected " + format_value(want[i], f) +
           (std::is_same_v<T, word> ? std::string()
                                    : ", |error| " + format_value(err, number_format::float64) + " > tolerance " +
                                          format_value(tol, number_format::float64));
  }
  return "";
}

template <class T>
algorithm_outcome checked(std::vector<T> got, const std::vector<T>& want, double tol, double seconds,
                          number_format f) {
  algorithm_outcome o;
  o.output_length = static_cast<std::int64_t>(got.size());
  o.tolerance = tol;
  o.simulate_seconds = seconds;
  for (std::size_t i = 0; i < got.size() && i < 16; ++i) o.output_preview.push_back(format_value(got[i], f));
  o.mismatch = first_mismatch(got, want, tol, f);
  o.verified = o.mismatch.empty();
  if constexpr (std::is_same_v<T, real>)
    for (std::size_t i = 0; i < got.size() && i < want.size(); ++i) {
      const double err = std::fabs(got[i] - want[i]);
      o.max_abs_error = std::max(o.max_abs_error, std::isnan(err) ? INFINITY : err);
    }
  if constexpr (std::is_same_v<T, word>) o.output_words = std::move(got);
  else o.output_reals = std::move(got);
  return o;
}

template std::string first_mismatch(const std::vector<word>&, const std::vector<word>&, double, number_format);
template std::string first_mismatch(const std::vector<real>&, const std::vector<real>&, double, number_format);
template algorithm_outcome checked(std::vector<word>, const std::vector<word>&, double, double, number_format);
template algorithm_outcome checked(std::vector<real>, const std::vector<real>&, double, double, number_format);

}  // namespace mmv
