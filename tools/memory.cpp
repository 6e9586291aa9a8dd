// The memory check of large inputs (memory.hpp).
#include "memory.hpp"

#include "cli.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace mmv::tool {

double available_memory() {
  double bytes = static_cast<double>(::sysconf(_SC_PHYS_PAGES)) * static_cast<double>(::sysconf(_SC_PAGE_SIZE));
  struct rlimit limit{};
  if (::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    bytes = std::min(bytes, static_cast<double>(limit.rlim_cur));
  if (const char* mib = std::getenv("MMVRAM_MEMORY_LIMIT_MB"); mib && std::atof(mib) > 0)
    bytes = std::min(bytes, std::atof(mib) * 0x1p20);
  return bytes;
}

void require_memory(double elements, const std::string& what) {
  const double need = elements * bytes_per_element, have = available_memory();
  if (need <= have) return;
  char text[160];
  std::snprintf(text, sizeof text, "needs about %.3g GiB (%.3g elements at %.0f bytes each), more than the %.3g GiB",
                need / 0x1p30, elements, bytes_per_element, have / 0x1p30);
  throw usage_error("out of memory: " + what + " " + text + " this machine has (see docs/tool.md, Performance)");
}

}  // namespace mmv::tool
