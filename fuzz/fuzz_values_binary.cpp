// Fuzzes the binary vector reader: the first byte picks the element type (.u8 .i32 .i64 .f32
// .f64), the rest is the file; the result is values or one usage_error.
#include "fuzz_file.hpp"
#include "inputs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const char* const types[] = {"u8", "i32", "i64", "f32", "f64"};
  const std::string path = mmv::fuzz::put_file(data + 1, size - 1, types[data[0] % 5]);
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
