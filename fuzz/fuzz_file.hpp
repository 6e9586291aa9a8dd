// The fuzz targets' helpers: the fuzzed bytes as a file with a given extension, since the
// tool's parsers read paths (the extension picks text or a binary element type), and the
// memory cap every target runs under.
#pragma once
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

namespace mmv::fuzz {

// Writes `size` bytes to a file of this process named input.<extension> under /dev/shm (memory,
// faster) or else /tmp; returns its path.
inline std::string put_file(const std::uint8_t* data, std::size_t size, const std::string& extension) {
  static const std::string dir = ::access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
  const std::string path = dir + "/mmvram-fuzz-" + std::to_string(::getpid()) + "-input." + extension;
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(data),
                                                               static_cast<std::streamsize>(size));
  return path;
}

}  // namespace mmv::fuzz

// libFuzzer calls this once: the tool refuses inputs whose estimate exceeds 1 GiB (below the
// fuzzer's 2 GiB RSS limit), as it would on a machine of that size.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  ::setenv("MMVRAM_MEMORY_LIMIT_MB", "1024", 1);
  return 0;
}
