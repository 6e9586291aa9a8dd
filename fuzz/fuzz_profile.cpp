// Fuzzes the device profile reader (profile_file.cpp: nlohmann/json with bounded nesting and no
// duplicate keys, then the schema of mmvram-profile/1): a profile or one model_error, never a
// crash or a stack overflow. A profile it reads is written and read back unchanged, and refitting
// its training points gives a profile or one model_error (never a number that is not finite in
// the JSON).
#include "fuzz_file.hpp"

#include "mmvram/prediction/fit.hpp"
#include "mmvram/prediction/profile_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  mmv::device_profile p;
  try {
    p = mmv::parse_profile(std::string(reinterpret_cast<const char*>(data), size), "fuzz.json");
  } catch (const mmv::model_error&) {
    return 0;
  }
  const std::string text = mmv::profile_json(p);
  if (mmv::profile_json(mmv::parse_profile(text, "written.json")) != text) __builtin_trap();
  try {
    mmv::fit_profile(p, p.points);
    (void)mmv::profile_json(p);
  } catch (const mmv::model_error&) {
  }
  return 0;
}
