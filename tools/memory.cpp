// The memory and work checks of large runs (memory.hpp).
#include "memory.hpp"

#include "cli.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace mmv::tool {

double available_memory() {
  double bytes = static_cast<double>(::sysconf(_SC_PHYS_PAGES)) * static_cast<double>(::sysconf(_SC_PAGE_SIZE));
  struct rlimit limit{};
  if (::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    bytes = std::min(bytes, static_cast<double>(limit.rlim_cur));
  if (const char* mib = std::getenv("MMVRAM_MEMORY_LIMIT_MB"); mib && *mib) {
    char* end = nullptr;
    const double v = std::strtod(mib, &end);
    if (*end != '\0' || !std::isfinite(v) || !(v > 0) || v > 0x1p40)
      throw usage_error("MMVRAM_MEMORY_LIMIT_MB must be a number of MiB in (0, 2^40] (got '" + std::string(mib) + "')");
    bytes = std::min(bytes, v * 0x1p20);
  }
  return bytes;
}

double work_limit() {
  const char* text = std::getenv("MMVRAM_WORK_LIMIT");
  if (!text || !*text) return default_work_limit;
  const std::int64_t v = parse_count(text, "MMVRAM_WORK_LIMIT");
  if (v < 1) throw usage_error("MMVRAM_WORK_LIMIT must be at least 1 (got '" + std::string(text) + "')");
  return static_cast<double>(v);
}

namespace {

[[noreturn]] void out_of_memory(const std::string& what, double elements, const char* counted, double per_element) {
  char text[200];
  std::snprintf(text, sizeof text, "needs about %.3g GiB (%.3g %s at %.0f bytes each), more than the %.3g GiB",
                elements * per_element / 0x1p30, elements, counted, per_element, available_memory() / 0x1p30);
  throw usage_error("out of memory: " + what + " " + text + " this machine has (see docs/tool.md, Performance)");
}

}  // namespace

void require_memory(double elements, const std::string& what) {
  if (elements * bytes_per_element > available_memory()) out_of_memory(what, elements, "elements", bytes_per_element);
}

void require_run_fits(const cost_prediction& p, const std::string& what) {
  const auto longest = static_cast<double>(p.largest_vector);
  if (longest * bytes_per_vector_element > available_memory())
    out_of_memory(what, longest, "elements in its longest vector", bytes_per_vector_element);
  const double work = static_cast<double>(p.multiply_adds) + static_cast<double>(p.vcu_work), limit = work_limit();
  if (work <= limit) return;
  char text[240];
  std::snprintf(text, sizeof text,
                "would simulate about %.3g operations (%.3g MMU multiply-adds, %.3g VCU element operations), more "
                "than the limit of %.3g (MMVRAM_WORK_LIMIT; see docs/tool.md, Resources)",
                work, static_cast<double>(p.multiply_adds), static_cast<double>(p.vcu_work), limit);
  throw usage_error("too much work: " + what + " " + text);
}

}  // namespace mmv::tool
