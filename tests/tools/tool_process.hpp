// Running the built `mmvram` binary from a test: arguments in, exit code, stdout and stderr
// out; plus a scratch directory per test and small file helpers.
#pragma once
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mmv::test {

struct tool_result {
  int code = -1;
  std::string out, err;
};

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void write_text(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

// A fresh directory under the system temp dir, removed when the object dies.
struct scratch_dir {
  std::filesystem::path path;
  explicit scratch_dir(const std::string& name) {
    path = std::filesystem::temp_directory_path() / ("mmvram-test-" + name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~scratch_dir() { std::filesystem::remove_all(path); }
  std::filesystem::path operator/(const std::string& f) const { return path / f; }
  // Writes `bytes` to the file `name` in the directory; returns its path.
  std::string put(const std::string& name, const std::string& bytes) const {
    write_text(path / name, bytes);
    return (path / name).string();
  }
};

inline std::string shell_quote(const std::string& a) {
  std::string q = "'";
  for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool tool_has_asan = true;  // the tool is built with the tests, same flags
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool tool_has_asan = true;
#else
inline constexpr bool tool_has_asan = false;
#endif
#else
inline constexpr bool tool_has_asan = false;
#endif

// The 8 GiB memory cap of a bounded run. ASan reserves terabytes of shadow address space, so
// under ASan `ulimit -v` cannot be used; the cap is then ASan's largest single allocation
// (max_allocation_size_mb): a larger one ends the tool with ASan's out-of-memory report and a
// non-zero exit code (ASan's operator new does not throw std::bad_alloc), so a runaway
// allocation still fails the test instead of taking the machine's memory.
inline std::string memory_cap_prefix() {
  return tool_has_asan ? "ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1:"
                         "max_allocation_size_mb=8192\" "
                       : "ulimit -v 8388608 && ";
}

// Runs `mmvram args...` (in `cwd` when given) and captures everything. With `limit_s` > 0 the
// tool runs under `timeout limit_s` and 8 GiB of memory (memory_cap_prefix), so that a
// regression into an endless loop or an unbounded allocation fails the test (exit code 124,
// or out of memory) instead of hanging it.
inline tool_result run_tool(const std::vector<std::string>& args, const std::string& cwd = "", int limit_s = 0) {
  static int counter = 0;
  const auto dir = std::filesystem::temp_directory_path();
  const std::string tag = std::to_string(::getpid()) + "-" + std::to_string(counter++);
  const auto out = dir / ("mmvram-out-" + tag), err = dir / ("mmvram-err-" + tag);
  std::string cmd = (cwd.empty() ? "" : "cd " + shell_quote(cwd) + " && ") +
                    (limit_s > 0 ? memory_cap_prefix() + "timeout " + std::to_string(limit_s) + " " : "") +
                    shell_quote(MMVRAM_TOOL);
  for (const auto& a : args) cmd += " " + shell_quote(a);
  cmd += " >" + shell_quote(out.string()) + " 2>" + shell_quote(err.string());
  const int status = std::system(cmd.c_str());
  tool_result r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_text(out);
  r.err = read_text(err);
  std::filesystem::remove(out);
  std::filesystem::remove(err);
  return r;
}

// The value of a top-level "key": value in the tool's JSON: a string's text, any other value as
// JSON writes it ("12", "true", "null"); "<missing>" without the key or valid JSON.
inline std::string json_field(const std::string& json, const std::string& key) {
  const auto doc = nlohmann::json::parse(json, nullptr, false);
  if (!doc.is_object() || !doc.contains(key)) return "<missing>";
  const auto& v = doc[key];
  return v.is_string() ? v.get<std::string>() : v.dump();
}

}  // namespace mmv::test
