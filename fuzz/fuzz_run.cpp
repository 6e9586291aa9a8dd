// Fuzzes a whole `mmvram run` on small inputs: the bytes before the first NUL are the options
// (one per line; the word FILE stands for a file holding the bytes after the NUL). A run either
// verifies or ends in one of the tool's errors (usage, model, word width); anything else (a
// crash, another exception, a correct run failing verification) is a finding.
#include "fuzz_file.hpp"
#include "runner.hpp"

#include "mmvram/harness/registry.hpp"

#include <algorithm>
#include <cstring>
#include <sstream>

namespace {

std::vector<std::string> options_of(const std::string& text, const std::string& file) {
  std::vector<std::string> args;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line) && args.size() < 24;) args.push_back(line == "FILE" ? file : line);
  return args;
}

// Small enough to run in milliseconds, and writing no file.
bool small(const mmv::tool::run_options& o) {
  const auto& in = o.input;
  const bool matrix = mmv::find_algorithm(o.algorithm).shape == mmv::input_shape::matrix_pair;
  return o.dag_file.empty() && o.output_file.empty() && in.n <= (matrix ? 12 : in.bigbird.empty() ? 4096 : 256) &&
         o.s <= 256;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto* end = static_cast<const std::uint8_t*>(std::memchr(data, 0, size));
  const std::size_t split = end ? static_cast<std::size_t>(end - data) : size;
  const std::string file = mmv::fuzz::put_file(data + std::min(size, split + 1), size - std::min(size, split + 1), "txt");
  try {
    const auto o = mmv::tool::parse_run(options_of(std::string(reinterpret_cast<const char*>(data), split), file));
    if (!small(o)) return 0;
    const auto r = mmv::tool::run_once(o);
    if (!r.outcome.verified && !mmv::find_algorithm(o.algorithm).breaks_down) __builtin_trap();
  } catch (const mmv::tool::usage_error&) {
  } catch (const mmv::model_error&) {
  } catch (const mmv::width_error&) {
  }
  return 0;
}
