// Catch2 checks on a run of the built `mmvram` binary (tool_process.hpp runs it).
#pragma once
#include <algorithm>
#include <string>
#include <vector>

#include "catch.hpp"
#include "tool_process.hpp"

namespace mmv::test {

// The tool refuses `args` cleanly: exit 2, nothing on stdout, exactly one line on stderr that
// starts "mmvram: error: " and holds `fragment`. Each run is bounded to 60 s.
inline void require_clean_error(const std::vector<std::string>& args, const std::string& fragment) {
  const auto r = run_tool(args, "", 60);
  INFO("stderr: " << r.err << "\nstdout: " << r.out);
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK(r.err.rfind("mmvram: error: ", 0) == 0);
  CHECK(r.err.find(fragment) != std::string::npos);
}

}  // namespace mmv::test
