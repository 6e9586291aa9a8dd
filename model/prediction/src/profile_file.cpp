// The profile file (profile_file.hpp): nlohmann/json parses it, bounded in size and depth and
// refusing duplicate keys; every field of the schema is then checked by type and range.
#include "mmvram/prediction/profile_file.hpp"

#include "mmvram/model/files.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <set>
#include <sstream>

namespace mmv {

namespace {

using json = nlohmann::json;

// A profile is a few hundred KiB (a class per format and s, a point per instruction timed) and
// nests 3 deep; larger or deeper input is refused before it is read or parsed.
constexpr std::uint64_t max_profile_bytes = std::uint64_t{64} << 20;
constexpr int max_json_depth = 64;

std::string num_text(double v) {
  std::ostringstream o;
  o.precision(17);
  o << v;
  return o.str();
}

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw model_error("device profile " + path + ": " + what);
}

// The parser's reason without its prefix ("[json.exception...] parse error at line L, column C: ")
// and without the text it last read (a whole string token, which may be megabytes long).
std::string reason(const json::parse_error& e) {
  std::string what = e.what();
  if (const auto at = what.find(": ", what.find("column ")); at != std::string::npos) what.erase(0, at + 2);
  if (const auto last = what.find("; last read: "); last != std::string::npos) {
    const auto expected = what.rfind("; expected ");
    what = what.substr(0, last) + (expected != std::string::npos && expected > last ? what.substr(expected) : "");
  }
  return escaped(what);
}

// The document in `bytes` (RFC 8259, strict): containers nested at most max_json_depth deep,
// no object with a key twice. model_error naming `path` and, where the parser knows it, the byte.
json parse_document(const std::string& bytes, const std::string& path) {
  std::vector<std::set<std::string>> keys;  // the keys seen in each open object
  const json::parser_callback_t check = [&](int depth, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::object_start || event == json::parse_event_t::array_start) {
      if (depth > max_json_depth) fail(path, "bad JSON (nested deeper than " + std::to_string(max_json_depth) + " levels)");
      if (event == json::parse_event_t::object_start) keys.emplace_back();
    } else if (event == json::parse_event_t::object_end) {
      keys.pop_back();
    } else if (event == json::parse_event_t::key && !keys.back().insert(parsed.get<std::string>()).second) {
      fail(path, "bad JSON (duplicate key '" + escaped(parsed.get<std::string>()) + "')");
    }
    return true;
  };
  try {
    return json::parse(bytes, check);
  } catch (const json::parse_error& e) {
    fail(path, "bad JSON at byte " + std::to_string(e.byte) + " (" + reason(e) + ")");
  } catch (const json::out_of_range&) {  // the one reason the parser gives besides syntax
    fail(path, "bad JSON (a number too large for a double)");
  }
}

// A name from the profile as an error message shows it: quoted, bytes outside printable ASCII
// as \xNN.
std::string shown(const std::string& name) {
  std::string s = "'";
  return s.append(escaped(name)).append("'");
}

const json& member(const json& o, const std::string& key, const std::string& path) {
  const auto it = o.find(key);
  if (it == o.end()) fail(path, "missing field '" + key + "'");
  return *it;
}
double number(const json& o, const std::string& key, const std::string& path) {
  const json& v = member(o, key, path);
  if (!v.is_number()) fail(path, "field '" + key + "' must be a number");
  return v.get<double>();
}
// A number >= 0 (> 0 when `positive`).
double non_negative(const json& o, const std::string& key, const std::string& path, bool positive = false) {
  const double d = number(o, key, path);
  if (positive ? !(d > 0) : !(d >= 0))
    fail(path, "field '" + key + "' must be " + (positive ? "positive" : "at least 0") + " (got " + num_text(d) + ")");
  return d;
}
// A whole number in [lo, hi] (0 <= lo <= hi), exact over the whole 64-bit range: an integer is
// compared as one, a number with a fraction or exponent only when it is whole.
std::int64_t count(const json& o, const std::string& key, const std::string& path, std::int64_t lo, std::int64_t hi) {
  const json& v = member(o, key, path);
  bool in_range = false;
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    in_range = u >= static_cast<std::uint64_t>(lo) && u <= static_cast<std::uint64_t>(hi);
  } else if (v.is_number_float()) {
    const double d = v.get<double>();
    in_range = d == std::floor(d) && d >= static_cast<double>(lo) && d <= static_cast<double>(hi);
  }  // a negative integer is below lo
  if (!v.is_number() || !in_range)
    fail(path, "field '" + key + "' must be a whole number in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return v.is_number_unsigned() ? static_cast<std::int64_t>(v.get<std::uint64_t>()) : static_cast<std::int64_t>(v.get<double>());
}
std::string text(const json& o, const std::string& key, const std::string& path) {
  const json& v = member(o, key, path);
  if (!v.is_string()) fail(path, "field '" + key + "' must be a string");
  return v.get<std::string>();
}

// `v` for the writer; model_error for a number that is not finite (JSON has none).
double finite(double v) {
  if (!std::isfinite(v)) throw model_error("device profile: refusing to write a number that is not finite (" + num_text(v) + ")");
  return v;
}

class_time_model class_of(const json& c, const std::string& path) {
  class_time_model m;
  m.latency_ns = non_negative(c, "latency_ns", path);
  m.ns_per_byte = non_negative(c, "ns_per_byte", path);
  m.ns_per_op = non_negative(c, "ns_per_op", path);
  m.residual_median = non_negative(c, "residual_median", path);
  m.residual_max = non_negative(c, "residual_max", path);
  m.points = static_cast<int>(count(c, "points", path, 0, 1'000'000'000));
  if (c.contains("host_ns")) m.host_ns = non_negative(c, "host_ns", path);  // absent in older profiles
  // Absent in profiles without a knee: one bandwidth for all bytes.
  m.ns_per_byte_beyond_l2 = c.contains("ns_per_byte_beyond_l2") ? non_negative(c, "ns_per_byte_beyond_l2", path) : m.ns_per_byte;
  if (const auto it = c.find("knee"); it != c.end()) {  // absent in older profiles: a hinge
    const std::string knee = it->is_string() ? it->get<std::string>() : "";
    if (knee != "hinge" && knee != "step") fail(path, "a class's 'knee' must be \"hinge\" or \"step\"");
    m.step_at_knee = knee == "step";
  }
  return m;
}

training_point point_of(const json& t, const std::string& path) {
  // A refit divides by measured_ns: a time of 0 (or below) is no timing.
  return {text(t, "class", path), text(t, "op", path), count(t, "m", path, 0, std::int64_t{1} << 62),
          static_cast<int>(count(t, "s", path, 0, 1'000'000)), non_negative(t, "bytes", path),
          non_negative(t, "work", path), non_negative(t, "measured_ns", path, true),
          non_negative(t, "predicted_ns", path), t.contains("host_ns") ? non_negative(t, "host_ns", path) : 0.0};
}

mmu_shape_point shape_of(const json& t, const std::string& path) {
  mmu_shape_point q{text(t, "format", path), static_cast<int>(count(t, "s", path, 1, 1'000'000)),
                    count(t, "m", path, 1, std::int64_t{1} << 62), non_negative(t, "measured_ns", path, true)};
  if (q.format != "mmu-word" && q.format != "mmu-real") fail(path, "an MMU shape's 'format' must be \"mmu-word\" or \"mmu-real\"");
  return q;
}

node_switch_point switch_of(const json& t, const std::string& path) {
  return {count(t, "m", path, 1, std::int64_t{1} << 62), non_negative(t, "mixed_ns", path, true), non_negative(t, "own_ns", path, true)};
}

// Appends each element of the array `key` of `top` (absent: nothing), read by `read`; an error
// in one names it as "<what> N" (N counted from 0).
template <typename T, typename Reader>
void read_optional_array(const json& top, const std::string& key, const std::string& what, const std::string& path,
                         Reader read, std::vector<T>& out) {
  const auto it = top.find(key);
  if (it == top.end()) return;
  if (!it->is_array()) fail(path, "'" + key + "' must be an array");
  for (const json& t : *it) {
    if (!t.is_object()) fail(path, "each element of '" + key + "' must be an object");
    try {
      out.push_back(read(t, path));
    } catch (const model_error& e) {
      throw model_error(std::string(e.what()) + " in " + what + " " + std::to_string(out.size()));
    }
  }
}

}  // namespace

device_profile parse_profile(const std::string& bytes, const std::string& path) {
  const json top = parse_document(bytes, path);
  if (!top.is_object()) fail(path, "not a JSON object");
  if (text(top, "schema", path) != "mmvram-profile/1") fail(path, "schema is not mmvram-profile/1");
  device_profile p;
  p.device = text(top, "device", path);
  p.date = text(top, "date", path);
  p.backend = text(top, "backend", path);
  if (top.contains("context")) p.context = text(top, "context", path);
  p.sm_clock_mhz = non_negative(top, "sm_clock_mhz", path);
  p.memory_clock_mhz = non_negative(top, "memory_clock_mhz", path);
  if (top.contains("l2_bytes")) p.l2_bytes = count(top, "l2_bytes", path, 0, std::int64_t{1} << 50);  // 0 or absent: no knee
  p.l2_cache_bytes = top.contains("l2_cache_bytes") ? count(top, "l2_cache_bytes", path, 0, std::int64_t{1} << 50) : 0;
  if (p.l2_cache_bytes == 0) p.l2_cache_bytes = p.l2_bytes;  // older profiles: the knee was the L2's size
  p.bytes_per_word = static_cast<int>(count(top, "bytes_per_word", path, 1, 16));
  const json& classes = member(top, "classes", path);
  if (!classes.is_object()) fail(path, "'classes' must be an object");
  for (const auto& [name, c] : classes.items()) {
    if (!c.is_object()) fail(path, "class " + shown(name) + " must be an object");
    try {
      p.classes[name] = class_of(c, path);
    } catch (const model_error& e) {
      throw model_error(std::string(e.what()) + " in class " + shown(name));
    }
  }
  read_optional_array(top, "training_points", "training point", path, point_of, p.points);
  read_optional_array(top, "node_switches", "node switch point", path, switch_of, p.node_switches);  // absent in older profiles
  read_optional_array(top, "mmu_shapes", "MMU shape", path, shape_of, p.mmu_shapes);                // absent in older profiles
  return p;
}

device_profile read_profile(const std::string& path) {
  return parse_profile(read_regular_file(path, "device profile", max_profile_bytes), path);
}

std::string profile_json(const device_profile& p) {
  using ordered = nlohmann::ordered_json;
  ordered classes = ordered::object(), points = ordered::array(), shapes = ordered::array();
  for (const auto& [name, m] : p.classes)
    classes[name] = {{"latency_ns", finite(m.latency_ns)},       {"ns_per_byte", finite(m.ns_per_byte)},
                     {"ns_per_byte_beyond_l2", finite(m.ns_per_byte_beyond_l2)},
                     {"knee", m.step_at_knee ? "step" : "hinge"},
                     {"ns_per_op", finite(m.ns_per_op)},         {"residual_median", finite(m.residual_median)},
                     {"residual_max", finite(m.residual_max)},   {"points", m.points},
                     {"host_ns", finite(m.host_ns)}};
  for (const auto& t : p.points)
    points.push_back({{"class", t.cls},         {"op", t.op},
                      {"m", t.m},               {"s", t.s},
                      {"bytes", finite(t.bytes)}, {"work", finite(t.work)},
                      {"measured_ns", finite(t.measured_ns)}, {"predicted_ns", finite(t.predicted_ns)},
                      {"host_ns", finite(t.host_ns)}});
  for (const auto& q : p.mmu_shapes)
    shapes.push_back({{"format", q.format}, {"s", q.s}, {"m", q.m}, {"measured_ns", finite(q.measured_ns)}});
  ordered switches = ordered::array();
  for (const auto& q : p.node_switches)
    switches.push_back({{"m", q.m}, {"mixed_ns", finite(q.mixed_ns)}, {"own_ns", finite(q.own_ns)}});
  const ordered doc = {{"schema", "mmvram-profile/1"},
                       {"device", p.device},
                       {"date", p.date},
                       {"backend", p.backend},
                       {"context", p.context},
                       {"sm_clock_mhz", finite(p.sm_clock_mhz)},
                       {"memory_clock_mhz", finite(p.memory_clock_mhz)},
                       {"l2_bytes", p.l2_bytes},
                       {"l2_cache_bytes", p.l2_cache_bytes},
                       {"bytes_per_word", p.bytes_per_word},
                       {"classes", classes},
                       {"node_switches", switches},
                       {"training_points", points},
                       {"mmu_shapes", shapes}};
  // Bytes that are not UTF-8 (a name given to calibrate) are written as U+FFFD: the file stays JSON.
  return doc.dump(2, ' ', false, ordered::error_handler_t::replace) + "\n";
}

void write_profile(const std::string& path, const device_profile& p) {
  write_whole_file(path, profile_json(p), "the device profile '" + path + "'");
}

}  // namespace mmv
