// The report's cell formatting, shared by its schema (report.cpp) and its text (report_text.cpp).
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>

namespace mmv::tool {

// A count as text; a real number in printf format fmt.
inline std::string num(std::int64_t v) { return std::to_string(v); }
inline std::string num(double v, const char* fmt = "%.9g") {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}
inline std::string boolean(bool b) { return b ? "true" : "false"; }

}  // namespace mmv::tool
