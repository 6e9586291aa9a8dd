// What the GPU half needs to know of the current device: its name, SM count, caches and
// versions (recorded with every result), and the grid size that fills it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace mmv::gpu::runtime {

struct device_info {
  int index = 0;
  std::string name;
  int sm_count = 0, cc_major = 0, cc_minor = 0;
  std::size_t l2_bytes = 0, memory_bytes = 0;
  int sm_clock_khz = 0;  // the SM clock's peak (clock64 counts its cycles); 0 if unknown
  int runtime_version = 0, driver_version = 0;
};

// Describes the current device; returns false with a message in `why` when none is usable.
bool current_device(device_info& info, std::string& why);
// The current device; throws cuda_error("no CUDA device: ...") when none is usable.
device_info require_device();
// 13000 -> "13.0"
std::string cuda_version_string(int v);
// Free device memory in bytes (0 when the query fails).
std::size_t free_device_bytes();
// The current device's SM count, read once per device and cached (thread-safe); throws
// cuda_error when the query fails.
int sm_count();

}  // namespace mmv::gpu::runtime
