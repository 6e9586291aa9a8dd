// Fuzzes the Matrix Market reader with its size checks: a CSR matrix or one usage_error.
#include "fuzz_file.hpp"
#include "inputs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = mmv::fuzz::put_file(data, size, "mtx");
  try {
    mmv::tool::read_matrix_file(path, 1);
  } catch (const mmv::tool::usage_error&) {
  }
  return 0;
}
