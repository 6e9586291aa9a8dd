#include "mmvram/algorithms/reference.hpp"

#include <stdexcept>

namespace mmv::reference {

namespace {
void require_lengths(std::size_t a, std::size_t b) {
  if (a != b) throw std::invalid_argument("reference: values and flags differ in length");
}
}  // namespace

template <class T>
std::vector<T> inclusive_scan(const std::vector<T>& x) {
  std::vector<T> out(x.size());
  T acc{};
  for (std::size_t i = 0; i < x.size(); ++i) out[i] = acc = acc + x[i];
  return out;
}

template <class T>
std::vector<T> segmented_scan(const std::vector<T>& x, const std::vector<std::int64_t>& flags) {
  require_lengths(x.size(), flags.size());
  std::vector<T> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) out[i] = (i == 0 || flags[i]) ? x[i] : out[i - 1] + x[i];
  return out;
}

template <class T>
std::vector<T> segmented_sum(const std::vector<T>& x, const std::vector<std::int64_t>& flags) {
  require_lengths(x.size(), flags.size());
  std::vector<T> out;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (i == 0 || flags[i]) out.push_back(T{});
    out.back() += x[i];
  }
  return out;
}

std::vector<double> decayed_scan(const std::vector<double>& a, const std::vector<double>& b,
                                 const std::vector<std::int64_t>& flags) {
  require_lengths(a.size(), b.size());
  require_lengths(a.size(), flags.size());
  std::vector<double> h(a.size());
  for (std::size_t j = 0; j < a.size(); ++j) h[j] = (j == 0 || flags[j]) ? b[j] : a[j] * h[j - 1] + b[j];
  return h;
}

template std::vector<std::int64_t> inclusive_scan(const std::vector<std::int64_t>&);
template std::vector<double> inclusive_scan(const std::vector<double>&);
template std::vector<std::int64_t> segmented_scan(const std::vector<std::int64_t>&, const std::vector<std::int64_t>&);
template std::vector<double> segmented_scan(const std::vector<double>&, const std::vector<std::int64_t>&);
template std::vector<std::int64_t> segmented_sum(const std::vector<std::int64_t>&, const std::vector<std::int64_t>&);
template std::vector<double> segmented_sum(const std::vector<double>&, const std::vector<std::int64_t>&);

}  // namespace mmv::reference
