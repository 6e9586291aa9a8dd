// Fuzzes the text vector reader (--values, --flags, --decays, --values2, --vector): any bytes
// give values or one usage_error, never a crash, a hang or unbounded memory.
#include "fuzz_file.hpp"
#include "inputs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = mmv::fuzz::put_file(data, size, "txt");
  try {
    mmv::tool::read_words(path, "values");
  } catch (const mmv::tool::usage_error&) {
  }
  try {
    mmv::tool::read_reals(path, "values");
  } catch (const mmv::tool::usage_error&) {
  }
  return 0;
}
