// Sequential references: plain loops, independent of the machine, that every algorithm is
// checked against. Position 0 always starts a segment, whatever flags[0] holds.
#pragma once
#include <cstdint>
#include <vector>

namespace mmv::reference {

// out[i] = x[0] + ... + x[i].
template <class T> std::vector<T> inclusive_scan(const std::vector<T>& x);
// out[i] = x[j] + ... + x[i], j = the start of i's segment.
template <class T> std::vector<T> segmented_scan(const std::vector<T>& x, const std::vector<std::int64_t>& flags);
// One sum per segment, in order.
template <class T> std::vector<T> segmented_sum(const std::vector<T>& x, const std::vector<std::int64_t>& flags);
// h[j] = a[j] * h[j-1] + b[j], with h[j] = b[j] where flags[j] = 1 (and at j = 0); in double.
std::vector<double> decayed_scan(const std::vector<double>& a, const std::vector<double>& b,
                                 const std::vector<std::int64_t>& flags);

}  // namespace mmv::reference
