// The one median of the kernels' timings (`mmvram kernels` bench, state-passing, multi-gpu).
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

namespace mmv::tool::kernels {

// The median of x: its middle value, or the mean of its two middle values when x has an even
// count (the definition kernels bench has always reported, now the one of every kernels timing).
// x is taken by value and sorted; NaN when empty.
inline double median(std::vector<double> x) {
  if (x.empty()) return NAN;
  std::sort(x.begin(), x.end());
  const std::size_t m = x.size() / 2;
  return x.size() % 2 ? x[m] : 0.5 * (x[m - 1] + x[m]);
}

}  // namespace mmv::tool::kernels
