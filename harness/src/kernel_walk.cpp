// The non-template parts of the kernels' parallel walk (kernel_walk.hpp).
#include "kernel_walk.hpp"

#include <thread>

namespace mmv::kernel_reference {

void merge(verdict& into, const verdict& from) {
  into.pass = into.pass && from.pass;
  into.bad += from.bad;
  into.max_error = std::max(into.max_error, from.max_error);
  into.worst_ratio = std::max(into.worst_ratio, from.worst_ratio);
  into.layout_error = into.layout_error || from.layout_error;
  into.max_scaled_error = std::max(into.max_scaled_error, from.max_scaled_error);
  into.max_single_error = std::max(into.max_single_error, from.max_single_error);
  into.single_over_derived = std::max(into.single_over_derived, from.single_over_derived);
  into.single_results += from.single_results;
  into.single_bad += from.single_bad;
  for (int b = 0; b < kBitsLostBins; ++b) into.bits_lost[b] += from.bits_lost[b];
  if (from.first_bad >= 0 && (into.first_bad < 0 || from.first_bad < into.first_bad)) {
    into.first_bad = from.first_bad;
    into.detail = from.detail;
  }
}

void parallel_tasks(std::int64_t count, const std::function<void(std::int64_t)>& task) {
  const std::int64_t threads = std::clamp<std::int64_t>(std::thread::hardware_concurrency(), 1, 64);
  std::vector<std::thread> pool;
  for (std::int64_t t = 0; t < std::min(threads, count); ++t)
    pool.emplace_back([&, t] {
      for (std::int64_t k = t; k < count; k += threads) task(k);
    });
  for (auto& th : pool) th.join();
}

}  // namespace mmv::kernel_reference
