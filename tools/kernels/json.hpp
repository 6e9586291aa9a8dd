// A minimal JSON writer (objects, arrays, strings, numbers, booleans, null) with indentation;
// non-finite numbers are written as null.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace mmv::gpu::harness {

class json_writer {
 public:
  explicit json_writer(std::ostream& os) : os_(os) {}
  json_writer& begin_object(std::string_view key = {}) { open(key, '{'); return *this; }
  json_writer& end_object() { close('}'); return *this; }
  json_writer& begin_array(std::string_view key = {}) { open(key, '['); return *this; }
  json_writer& end_array() { close(']'); return *this; }
  json_writer& field(std::string_view key, std::string_view v) { prefix(key); quote(v); return *this; }
  json_writer& field(std::string_view key, const char* v) { return field(key, std::string_view(v)); }
  json_writer& field(std::string_view key, const std::string& v) { return field(key, std::string_view(v)); }
  json_writer& field(std::string_view key, bool v) { prefix(key); os_ << (v ? "true" : "false"); return *this; }
  json_writer& field(std::string_view key, std::int64_t v) { prefix(key); os_ << v; return *this; }
  json_writer& field(std::string_view key, int v) { return field(key, static_cast<std::int64_t>(v)); }
  json_writer& field(std::string_view key, std::uint64_t v) { prefix(key); os_ << v; return *this; }
  json_writer& field(std::string_view key, double v) {
    prefix(key);
    if (!std::isfinite(v)) {
      os_ << "null";
    } else {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.9g", v);
      os_ << buf;
    }
    return *this;
  }
  json_writer& null_field(std::string_view key) { prefix(key); os_ << "null"; return *this; }

 private:
  void prefix(std::string_view key) {
    if (!first_.empty()) {
      if (!first_.back()) os_ << ',';
      first_.back() = false;
      os_ << '\n' << std::string(2 * first_.size(), ' ');
    }
    if (!key.empty()) {
      quote(key);
      os_ << ": ";
    }
  }
  void open(std::string_view key, char c) {
    prefix(key);
    os_ << c;
    first_.push_back(true);
  }
  void close(char c) {
    const bool empty = first_.back();
    first_.pop_back();
    if (!empty) os_ << '\n' << std::string(2 * first_.size(), ' ');
    os_ << c;
    if (first_.empty()) os_ << '\n';
  }
  void quote(std::string_view s) {
    os_ << '"';
    for (char ch : s) {
      const auto c = static_cast<unsigned char>(ch);
      if (c == '"' || c == '\\') os_ << '\\' << ch;
      else if (c == '\n') os_ << "\\n";
      else if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        os_ << buf;
      } else os_ << ch;
    }
    os_ << '"';
  }
  std::ostream& os_;
  std::vector<bool> first_;
};

}  // namespace mmv::gpu::harness
