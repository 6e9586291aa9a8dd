// Fuzzes the reader of an existing sweep CSV (header check, torn lines, quoting, keys):
// its rows or one usage_error.
#include "fuzz_file.hpp"
#include "sweep_csv.hpp"

#include "cli.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = mmv::fuzz::put_file(data, size, "csv");
  try {
    mmv::tool::read_existing(path, {0, 2, 4, 5, 6});
  } catch (const mmv::tool::usage_error&) {
  }
  mmv::tool::split_csv(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}
