// The profile file (profile_file.hpp): a small JSON reader for the fixed schema this file
// writes, and the writer.
#include "mmvram/prediction/profile_file.hpp"

#include "mmvram/model/files.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <variant>

namespace mmv {


namespace {

std::string num_text(double v) {
  std::ostringstream o;
  o.precision(17);
  o << v;
  return o.str();
}

// A profile is a few hundred KiB (a class per format and s, a point per instruction timed) and
// nests 3 deep; larger or deeper input is refused before it is read or parsed.
constexpr std::uint64_t max_profile_bytes = std::uint64_t{64} << 20;
constexpr int max_json_depth = 64;

struct json;
using json_object = std::map<std::string, json>;
struct json {
  std::variant<std::nullptr_t, double, std::string, json_object, std::vector<json>, bool> v;
};

// A strict JSON reader (RFC 8259): nesting bounded by max_json_depth, \uXXXX escapes decoded to
// UTF-8 (surrogate pairs included), control characters in strings and duplicate keys refused.
class json_reader {
 public:
  json_reader(const std::string& text, const std::string& path) : t_(text), path_(path) {}
  json document() {
    json j = value(0);
    skip();
    if (i_ != t_.size()) fail("trailing characters");
    return j;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw model_error("device profile " + path_ + ": bad JSON at byte " + std::to_string(i_) + " (" + what + ")");
  }
  void skip() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t' || t_[i_] == '\n' || t_[i_] == '\r')) ++i_;
  }
  bool take(char c) {
    skip();
    if (i_ < t_.size() && t_[i_] == c) return ++i_, true;
    return false;
  }
  void expect(char c) {
    if (!take(c)) fail(std::string("expected '") + c + "'");
  }
  unsigned hex4() {
    if (t_.size() - i_ < 4) fail("bad \\u escape");
    unsigned v = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = t_[i_++];
      const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
      if (d < 0) fail("bad \\u escape");
      v = v * 16 + static_cast<unsigned>(d);
    }
    return v;
  }
  static void append_utf8(std::string& s, unsigned cp) {
    if (cp < 0x80) {
      s += static_cast<char>(cp);
    } else if (cp < 0x800) {
      s += static_cast<char>(0xc0 | (cp >> 6)), s += static_cast<char>(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      s += static_cast<char>(0xe0 | (cp >> 12)), s += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
      s += static_cast<char>(0x80 | (cp & 0x3f));
    } else {
      s += static_cast<char>(0xf0 | (cp >> 18)), s += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
      s += static_cast<char>(0x80 | ((cp >> 6) & 0x3f)), s += static_cast<char>(0x80 | (cp & 0x3f));
    }
  }
  // The code point of a \u escape whose "\u" is consumed: a surrogate pair takes two escapes.
  unsigned code_point() {
    const unsigned hi = hex4();
    if (hi >= 0xdc00 && hi <= 0xdfff) fail("lone low surrogate in a \\u escape");
    if (hi < 0xd800 || hi > 0xdbff) return hi;
    if (t_.compare(i_, 2, "\\u") != 0) fail("high surrogate without its low half in a \\u escape");
    i_ += 2;
    const unsigned lo = hex4();
    if (lo < 0xdc00 || lo > 0xdfff) fail("high surrogate without its low half in a \\u escape");
    return 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
  }
  std::string string_value() {
    expect('"');
    std::string s;
    while (true) {
      if (i_ >= t_.size()) fail("unterminated string");
      const char c = t_[i_++];
      if (c == '"') return s;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
      if (c != '\\') {
        s += c;
        continue;
      }
      if (i_ >= t_.size()) fail("unterminated string");
      switch (const char e = t_[i_++]) {
        case '"': case '\\': case '/': s += e; break;
        case 'b': s += '\b'; break;
        case 'f': s += '\f'; break;
        case 'n': s += '\n'; break;
        case 'r': s += '\r'; break;
        case 't': s += '\t'; break;
        case 'u': append_utf8(s, code_point()); break;
        default: --i_, fail("bad escape");
      }
    }
  }
  // A number as JSON spells it: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
  double number_value() {
    const std::size_t start = i_;
    const auto digits = [&] {
      const std::size_t from = i_;
      while (i_ < t_.size() && t_[i_] >= '0' && t_[i_] <= '9') ++i_;
      return i_ - from;
    };
    if (i_ < t_.size() && t_[i_] == '-') ++i_;
    const std::size_t int_start = i_;
    if (digits() == 0 || (t_[int_start] == '0' && i_ - int_start > 1)) i_ = start, fail("expected a value");
    if (i_ < t_.size() && t_[i_] == '.' && (++i_, digits() == 0)) fail("expected digits after '.'");
    if (i_ < t_.size() && (t_[i_] == 'e' || t_[i_] == 'E')) {
      ++i_;
      if (i_ < t_.size() && (t_[i_] == '+' || t_[i_] == '-')) ++i_;
      if (digits() == 0) fail("expected digits in the exponent");
    }
    // strtod: an underflow gives 0 or a subnormal, an overflow inf (refused by number()).
    return std::strtod(t_.substr(start, i_ - start).c_str(), nullptr);
  }
  json value(int depth) {
    if (depth > max_json_depth) fail("nested deeper than " + std::to_string(max_json_depth) + " levels");
    skip();
    if (i_ >= t_.size()) fail("unexpected end");
    const char c = t_[i_];
    if (c == '{') {
      ++i_;
      json_object o;
      if (take('}')) return json{o};
      do {
        skip();
        const std::size_t at = i_;
        std::string key = string_value();
        expect(':');
        json v = value(depth + 1);
        if (!o.emplace(std::move(key), std::move(v)).second) i_ = at, fail("duplicate key");
      } while (take(','));
      expect('}');
      return json{o};
    }
    if (c == '[') {
      ++i_;
      std::vector<json> a;
      if (take(']')) return json{a};
      do a.push_back(value(depth + 1));
      while (take(','));
      expect(']');
      return json{a};
    }
    if (c == '"') return json{string_value()};
    for (const auto& [word, val] : {std::pair<const char*, json>{"true", json{true}}, {"false", json{false}}, {"null", json{nullptr}}})
      if (t_.compare(i_, std::strlen(word), word) == 0) return i_ += std::strlen(word), val;
    return json{number_value()};
  }

  const std::string& t_;
  const std::string& path_;
  std::size_t i_ = 0;
};

// A name from the profile as an error message shows it: quoted, bytes outside printable ASCII
// as \xNN.
std::string shown(const std::string& name) { return "'" + escaped(name) + "'"; }

const json& member(const json_object& o, const std::string& key, const std::string& path) {
  const auto it = o.find(key);
  if (it == o.end()) throw model_error("device profile " + path + ": missing field '" + key + "'");
  return it->second;
}
double number(const json_object& o, const std::string& key, const std::string& path) {
  const auto* d = std::get_if<double>(&member(o, key, path).v);
  if (!d || !std::isfinite(*d)) throw model_error("device profile " + path + ": field '" + key + "' must be a finite number");
  return *d;
}
// A finite number >= 0 (> 0 when `positive`).
double non_negative(const json_object& o, const std::string& key, const std::string& path, bool positive = false) {
  const double d = number(o, key, path);
  if (positive ? !(d > 0) : !(d >= 0))
    throw model_error("device profile " + path + ": field '" + key + "' must be " + (positive ? "positive" : "at least 0") +
                      " (got " + num_text(d) + ")");
  return d;
}
// A whole number in [lo, hi] (checked before any conversion).
std::int64_t count(const json_object& o, const std::string& key, const std::string& path, double lo, double hi) {
  const double d = number(o, key, path);
  if (!(d >= lo && d <= hi) || d != std::floor(d))
    throw model_error("device profile " + path + ": field '" + key + "' must be a whole number in range");
  return static_cast<std::int64_t>(d);
}
std::string text(const json_object& o, const std::string& key, const std::string& path) {
  const auto* s = std::get_if<std::string>(&member(o, key, path).v);
  if (!s) throw model_error("device profile " + path + ": field '" + key + "' must be a string");
  return *s;
}

// s as a JSON string literal (control characters as \u00XX, so that it reads back as it was).
std::string quoted(const std::string& s) {
  std::string q = "\"";
  for (const unsigned char c : s) {
    if (c == '"' || c == '\\') {
      q += '\\', q += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      char u[8];
      std::snprintf(u, sizeof u, "\\u%04x", c);
      q += u;
    } else {
      q += static_cast<char>(c);
    }
  }
  return q + "\"";
}

// A number of the profile at round-trip precision; model_error for one that is not finite.
std::string num(double v) {
  if (!std::isfinite(v)) throw model_error("device profile: refusing to write a number that is not finite (" + num_text(v) + ")");
  return num_text(v);
}

}  // namespace

device_profile parse_profile(const std::string& bytes, const std::string& path) {
  const json doc = json_reader(bytes, path).document();
  const auto* top = std::get_if<json_object>(&doc.v);
  if (!top) throw model_error("device profile " + path + ": not a JSON object");
  if (text(*top, "schema", path) != "mmvram-profile/1")
    throw model_error("device profile " + path + ": schema is not mmvram-profile/1");
  device_profile p;
  p.device = text(*top, "device", path);
  p.date = text(*top, "date", path);
  p.backend = text(*top, "backend", path);
  if (top->count("context")) p.context = text(*top, "context", path);
  p.sm_clock_mhz = non_negative(*top, "sm_clock_mhz", path);
  p.memory_clock_mhz = non_negative(*top, "memory_clock_mhz", path);
  p.bytes_per_word = static_cast<int>(count(*top, "bytes_per_word", path, 1, 16));
  const auto* classes = std::get_if<json_object>(&member(*top, "classes", path).v);
  if (!classes) throw model_error("device profile " + path + ": 'classes' must be an object");
  for (const auto& [name, value] : *classes) {
    const auto* c = std::get_if<json_object>(&value.v);
    if (!c) throw model_error("device profile " + path + ": class " + shown(name) + " must be an object");
    class_time_model m;
    try {
      m.latency_ns = non_negative(*c, "latency_ns", path);
      m.ns_per_byte = non_negative(*c, "ns_per_byte", path);
      m.ns_per_op = non_negative(*c, "ns_per_op", path);
      m.residual_median = non_negative(*c, "residual_median", path);
      m.residual_max = non_negative(*c, "residual_max", path);
      m.points = static_cast<int>(count(*c, "points", path, 0, 1e9));
      if (c->count("host_ns")) m.host_ns = non_negative(*c, "host_ns", path);  // absent in older profiles
    } catch (const model_error& e) {
      throw model_error(std::string(e.what()) + " in class " + shown(name));
    }
    p.classes[name] = m;
  }
  if (const auto it = top->find("training_points"); it != top->end()) {
    const auto* pts = std::get_if<std::vector<json>>(&it->second.v);
    if (!pts) throw model_error("device profile " + path + ": 'training_points' must be an array");
    for (const auto& v : *pts) {
      const auto* t = std::get_if<json_object>(&v.v);
      if (!t) throw model_error("device profile " + path + ": a training point must be an object");
      try {
        // A refit divides by measured_ns: a time of 0 (or below) is no timing.
        p.points.push_back({text(*t, "class", path), text(*t, "op", path), count(*t, "m", path, 0, 0x1p62),
                            static_cast<int>(count(*t, "s", path, 0, 1e6)), non_negative(*t, "bytes", path),
                            non_negative(*t, "work", path), non_negative(*t, "measured_ns", path, true),
                            non_negative(*t, "predicted_ns", path),
                            t->count("host_ns") ? non_negative(*t, "host_ns", path) : 0.0});
      } catch (const model_error& e) {
        throw model_error(std::string(e.what()) + " in training point " + std::to_string(p.points.size()));
      }
    }
  }
  return p;
}

device_profile read_profile(const std::string& path) {
  return parse_profile(read_regular_file(path, "device profile", max_profile_bytes), path);
}

std::string profile_json(const device_profile& p) {
  std::ostringstream o;
  o << "{\n  \"schema\": \"mmvram-profile/1\",\n  \"device\": " << quoted(p.device) << ",\n  \"date\": " << quoted(p.date)
    << ",\n  \"backend\": " << quoted(p.backend) << ",\n  \"context\": " << quoted(p.context) << ",\n  \"sm_clock_mhz\": " << num(p.sm_clock_mhz)
    << ",\n  \"memory_clock_mhz\": " << num(p.memory_clock_mhz) << ",\n  \"bytes_per_word\": " << p.bytes_per_word
    << ",\n  \"classes\": {";
  bool first = true;
  for (const auto& [name, m] : p.classes) {
    o << (first ? "\n" : ",\n") << "    " << quoted(name) << ": {\"latency_ns\": " << num(m.latency_ns)
      << ", \"ns_per_byte\": " << num(m.ns_per_byte) << ", \"ns_per_op\": " << num(m.ns_per_op)
      << ", \"residual_median\": " << num(m.residual_median) << ", \"residual_max\": " << num(m.residual_max)
      << ", \"points\": " << m.points << ", \"host_ns\": " << num(m.host_ns) << "}";
    first = false;
  }
  o << "\n  },\n  \"training_points\": [";
  for (std::size_t i = 0; i < p.points.size(); ++i) {
    const auto& t = p.points[i];
    o << (i ? ",\n" : "\n") << "    {\"class\": " << quoted(t.cls) << ", \"op\": " << quoted(t.op) << ", \"m\": " << t.m
      << ", \"s\": " << t.s << ", \"bytes\": " << num(t.bytes) << ", \"work\": " << num(t.work)
      << ", \"measured_ns\": " << num(t.measured_ns) << ", \"predicted_ns\": " << num(t.predicted_ns)
      << ", \"host_ns\": " << num(t.host_ns) << "}";
  }
  o << (p.points.empty() ? "]" : "\n  ]") << "\n}\n";
  return o.str();
}

void write_profile(const std::string& path, const device_profile& p) {
  write_whole_file(path, profile_json(p), "the device profile '" + path + "'");
}

}  // namespace mmv
