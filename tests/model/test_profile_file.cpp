// The profile file: its round trip, the reader's bounds and errors, and the checks on what a
// profile may hold (positive training times, predictions that stay finite).
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>

#include "model_test_util.hpp"
#include "time_model_test_util.hpp"
#include "mmvram/prediction/fit.hpp"
#include "mmvram/prediction/profile_file.hpp"
#include "mmvram/prediction/time_model.hpp"

using mt::small_profile;
using mt::temp_path;

TEST_CASE("a profile survives a write and a read; bad files are one clear error", "[time]") {
  auto p = small_profile();
  p.sm_clock_mhz = 1980;
  p.classes["stream"].host_ns = 2500;
  p.points.push_back({"stream", "add", 256, 16, 6144, 0, 4000, 4072, 2600});
  p.l2_bytes = 52428800 / 16 * 5;
  p.l2_cache_bytes = 52428800;
  p.classes["stream"].ns_per_byte_beyond_l2 = 0.75;
  p.classes["gather"].step_at_knee = true;
  const auto path = temp_path("mmvram_test_profile.json");
  mmv::write_profile(path, p);
  const auto q = mmv::read_profile(path);
  CHECK(q.device == p.device);
  CHECK(q.sm_clock_mhz == 1980);
  CHECK(q.l2_bytes == 52428800 / 16 * 5);
  CHECK(q.l2_cache_bytes == 52428800);
  CHECK(q.classes.at("stream").ns_per_byte_beyond_l2 == 0.75);
  CHECK(!q.classes.at("stream").step_at_knee);
  CHECK(q.classes.at("gather").ns_per_byte_beyond_l2 == 0);
  CHECK(q.classes.at("gather").step_at_knee);
  REQUIRE(q.classes.size() == 4);
  CHECK(q.classes.at("mmu-word/s4").ns_per_op == 0.01);
  CHECK(q.classes.at("stream").latency_ns == 1000);
  CHECK(q.classes.at("stream").host_ns == 2500);
  REQUIRE(q.points.size() == 1);
  CHECK(q.points[0].host_ns == 2600);
  CHECK(q.mmu_shapes.empty());
  CHECK(q.node_switches.empty());
  // The MMU shapes and the node switches come back as written.
  p.mmu_shapes = {{"mmu-word", 3, 4194303, 81000.5}, {"mmu-real", 4, 4194304, 50000}};
  p.node_switches = {{256, 2100, 1800.25}};
  mmv::write_profile(path, p);
  const auto r = mmv::read_profile(path);
  REQUIRE(r.mmu_shapes.size() == 2);
  CHECK(r.mmu_shapes[0].format == "mmu-word");
  CHECK(r.mmu_shapes[0].s == 3);
  CHECK(r.mmu_shapes[0].m == 4194303);
  CHECK(r.mmu_shapes[0].measured_ns == 81000.5);
  CHECK(r.mmu_shapes[1].format == "mmu-real");
  REQUIRE(r.node_switches.size() == 1);
  CHECK(r.node_switches[0].m == 256);
  CHECK(r.node_switches[0].mixed_ns == 2100);
  CHECK(r.node_switches[0].own_ns == 1800.25);
  // A shape of another format, or without a positive time, is refused.
  std::string text = mmv::profile_json(p);
  std::ofstream(path) << std::string(text).replace(text.find("\"mmu-real\""), 10, "\"mmu-half\"");
  CHECK_THROWS_WITH(mmv::read_profile(path), Catch::Contains("'format' must be \"mmu-word\" or \"mmu-real\" in MMU shape 1"));
  std::ofstream(path) << std::string(text).replace(text.find("81000.5"), 7, "0");
  CHECK_THROWS_WITH(mmv::read_profile(path), Catch::Contains("field 'measured_ns' must be positive (got 0) in MMU shape 0"));
  std::ofstream(path) << std::string(text).replace(text.find("1800.25"), 7, "-1");
  CHECK_THROWS_WITH(mmv::read_profile(path), Catch::Contains("field 'own_ns' must be positive (got -1)"));
  std::filesystem::remove(path);
  // A profile written before host times were kept reads with host_ns 0; a negative one is refused.
  const std::string older = "{\"schema\": \"mmvram-profile/1\", \"device\": \"d\", \"date\": \"x\", \"backend\": \"cuda\", "
                            "\"sm_clock_mhz\": 0, \"memory_clock_mhz\": 0, \"bytes_per_word\": 8, \"classes\": {\"stream\": "
                            "{\"latency_ns\": 1, \"ns_per_byte\": 0, \"ns_per_op\": 0, \"residual_median\": 0, \"residual_max\": 0, "
                            "\"points\": 1HOST}}, \"training_points\": [{\"class\": \"stream\", \"op\": \"add\", \"m\": 1, \"s\": 1, "
                            "\"bytes\": 1, \"work\": 0, \"measured_ns\": 1, \"predicted_ns\": 1}]}";
  const auto with_host = [&](const std::string& host) {
    std::string text = older;
    text.replace(text.find("HOST"), 4, host);
    std::ofstream(path) << text;
  };
  with_host("");
  const auto old_profile = mmv::read_profile(path);
  CHECK(old_profile.classes.at("stream").host_ns == 0);
  CHECK(old_profile.points.at(0).host_ns == 0);
  with_host(", \"host_ns\": -5");
  CHECK_THROWS_WITH(mmv::read_profile(path), Catch::Contains("field 'host_ns' must be at least 0 (got -5) in class 'stream'"));
  std::filesystem::remove(path);
  CHECK_THROWS_WITH(mmv::read_profile(temp_path("mmvram_no_such_profile.json")), Catch::Contains("cannot open device profile"));
  for (const std::string bad : {"{", "[]", "{\"schema\": \"other\"}", "{\"schema\": \"mmvram-profile/1\"}", "nonsense"}) {
    std::ofstream(path) << bad;
    CHECK_THROWS_AS(mmv::read_profile(path), mmv::model_error);
  }
  std::filesystem::remove(path);
}

namespace {

// A valid profile text with one class and one training point; {NAME}, {MEASURED} and {LATENCY}
// stand for the class name (JSON-escaped), the point's measured_ns and the class's latency_ns.
std::string profile_text(const std::string& name, const std::string& measured, const std::string& latency = "1") {
  std::string t = "{\"schema\": \"mmvram-profile/1\", \"device\": \"d\", \"date\": \"x\", \"backend\": \"cuda\", "
                  "\"sm_clock_mhz\": 0, \"memory_clock_mhz\": 0, \"bytes_per_word\": 8, \"classes\": {\"" + name +
                  "\": {\"latency_ns\": " + latency + ", \"ns_per_byte\": 0, \"ns_per_op\": 0, \"residual_median\": 0, "
                  "\"residual_max\": 0, \"points\": 1}}, \"training_points\": [{\"class\": \"stream\", \"op\": \"add\", "
                  "\"m\": 1, \"s\": 1, \"bytes\": 1, \"work\": 0, \"measured_ns\": " + measured + ", \"predicted_ns\": 1}]}";
  return t;
}

}  // namespace

TEST_CASE("the profile reader bounds depth and decodes escapes as JSON does", "[time]") {
  // 100,000 nested brackets: one error, not a stack overflow.
  CHECK_THROWS_WITH(mmv::parse_profile(std::string(100000, '['), "deep.json"),
                    Catch::Contains("nested deeper than 64 levels"));
  CHECK_THROWS_WITH(mmv::parse_profile(std::string(100000, '{'), "deep.json"), Catch::Contains("bad JSON"));
  // \u escapes (a surrogate pair too) decode to UTF-8; the writer escapes control characters back.
  const auto p = mmv::parse_profile(profile_text("a\\u001b\\u00e9\\ud83d\\ude00\\/\\b\\f\\r", "1"), "p.json");
  REQUIRE(p.classes.size() == 1);
  CHECK(p.classes.begin()->first == "a\x1b\xc3\xa9\xf0\x9f\x98\x80/\b\f\r");
  const std::string written = mmv::profile_json(p);
  CHECK(written.find("\\u001b") != std::string::npos);
  CHECK(mmv::parse_profile(written, "again.json").classes.begin()->first == p.classes.begin()->first);
  // Messages show such bytes escaped.
  CHECK_THROWS_WITH(mmv::parse_profile(profile_text("\\u001b", "1", "\"x\""), "p.json"),
                    Catch::Contains("in class '\\x1b'"));
  for (const std::string bad : {"\\x", "\\u12", "\\ud800", "\\udc00", "\\ud800\\u0041", "\x01", "\\"}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH(mmv::parse_profile(profile_text(bad, "1"), "p.json"), Catch::Contains("bad JSON"));
  }
  // Numbers as JSON spells them only; duplicate keys are refused.
  for (const std::string bad : {"inf", "nan", "0x10", "+1", "01", "1.", ".5", "1e", "-"}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH(mmv::parse_profile(profile_text("stream", bad), "p.json"), Catch::Contains("bad JSON"));
  }
  CHECK_THROWS_WITH(mmv::parse_profile(profile_text("stream", "1e999"), "p.json"),
                    Catch::Contains("bad JSON (a number too large for a double)"));
  CHECK(mmv::parse_profile(profile_text("stream", "1e-310"), "p.json").points.at(0).measured_ns > 0);
  CHECK_THROWS_WITH(mmv::parse_profile("{\"a\": 1, \"a\": 2}", "p.json"), Catch::Contains("bad JSON (duplicate key 'a')"));
  // In a nested object too; the same key in two objects is no duplicate.
  CHECK_THROWS_WITH(mmv::parse_profile("{\"b\": {\"a\": 1, \"c\": {}, \"a\": 2}}", "p.json"),
                    Catch::Contains("duplicate key 'a'"));
  CHECK_THROWS_WITH(mmv::parse_profile("{\"a\": {\"a\": 1}, \"b\": {\"a\": 2}}", "p.json"), Catch::Contains("missing field 'schema'"));
  // 65 nested containers are read (and are no profile); a 66th is refused.
  const auto nested = [](int levels) { return std::string(static_cast<std::size_t>(levels), '[') + std::string(static_cast<std::size_t>(levels), ']'); };
  CHECK_THROWS_WITH(mmv::parse_profile(nested(65), "p.json"), Catch::Contains("not a JSON object"));
  CHECK_THROWS_WITH(mmv::parse_profile(nested(66), "p.json"), Catch::Contains("nested deeper than 64 levels"));
  // Syntax errors name the byte and the reason, never the text read (it may be a huge string).
  CHECK_THROWS_WITH(mmv::parse_profile("{\"a\": \"\\x\"}", "p.json"),
                    Catch::Equals("device profile p.json: bad JSON at byte 9 (syntax error while parsing value - invalid "
                                  "string: forbidden character after backslash)"));
  CHECK_THROWS_WITH(mmv::parse_profile("{\"a\": 1}x", "p.json"),
                    Catch::Equals("device profile p.json: bad JSON at byte 9 (syntax error while parsing value - invalid "
                                  "literal; expected end of input)"));
}

TEST_CASE("the profile reader takes counts as exact 64-bit integers", "[time]") {
  const auto with_m = [](const std::string& m) {
    std::string t = profile_text("stream", "1");
    t.replace(t.find("\"m\": 1"), 6, "\"m\": " + m);
    return mmv::parse_profile(t, "p.json");
  };
  CHECK(with_m("4611686018427387904").points.at(0).m == std::int64_t{1} << 62);  // 2^62, beyond a double's 2^53
  CHECK(with_m("4611686018427387903").points.at(0).m == (std::int64_t{1} << 62) - 1);
  CHECK(with_m("1e3").points.at(0).m == 1000);  // a whole number in any spelling
  for (const std::string bad : {"4611686018427387905", "18446744073709551615", "99999999999999999999", "-1", "1.5", "\"1\""}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH(with_m(bad), Catch::Contains("field 'm' must be a whole number in [0, 4611686018427387904]") &&
                                       Catch::Contains("in training point 0"));
  }
}

TEST_CASE("the profile writer keeps names that are not UTF-8 readable", "[time]") {
  auto p = small_profile();
  p.device = "GPU \xff\xfe";
  const auto q = mmv::parse_profile(mmv::profile_json(p), "written.json");
  CHECK(q.device == "GPU \xef\xbf\xbd\xef\xbf\xbd");  // each bad byte as U+FFFD
  p.classes["stream"].latency_ns = std::numeric_limits<double>::infinity();
  CHECK_THROWS_WITH(mmv::profile_json(p), Catch::Contains("refusing to write a number that is not finite (inf)"));
}

TEST_CASE("training times must be positive, and a prediction that overflows is an error", "[time]") {
  for (const std::string bad : {"0", "-3", "-0"}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH(mmv::parse_profile(profile_text("stream", bad), "p.json"),
                      Catch::Contains("field 'measured_ns' must be positive") && Catch::Contains("training point 0"));
  }
  mmv::device_profile p;
  CHECK_THROWS_WITH(mmv::fit_profile(p, {{"stream", "add", 1, 1, 8, 0, 0.0, 0, 0}}), Catch::Contains("no usable time"));
  // A constant of 1e308 makes the sums overflow: an error, never "inf us".
  const auto huge = mmv::parse_profile(profile_text("stream", "1", "1e308"), "p.json");
  mmv::machine_config c;
  c.s = 4;
  mmv::machine m(c);
  const auto x = m.load<mmv::word>(std::vector<mmv::word>(16, 1));
  for (int k = 0; k < 3; ++k) (void)m.add(x, x);
  CHECK_THROWS_WITH(mmv::predict_time(huge, m.costs().records()), Catch::Contains("not finite"));
}

TEST_CASE("the profile file must be a regular file of bounded size", "[time]") {
  CHECK_THROWS_WITH(mmv::read_profile("/dev/zero"), Catch::Contains("is not a regular file"));
  const auto fifo = temp_path("mmvram_test_profile_fifo");
  std::filesystem::remove(fifo);
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THROWS_WITH(mmv::read_profile(fifo), Catch::Contains("is not a regular file"));  // no writer: would block
  CHECK_THROWS_WITH(mmv::write_profile(fifo, mmv::device_profile{}), Catch::Contains("no reader"));
  std::filesystem::remove(fifo);
  const auto big = temp_path("mmvram_test_profile_big.json");
  std::filesystem::remove(big);
  std::ofstream(big).close();
  std::filesystem::resize_file(big, (std::uintmax_t{64} << 20) + 1);  // sparse: no disk used
  CHECK_THROWS_WITH(mmv::read_profile(big), Catch::Contains("more than the 67108864 bytes mmvram reads"));
  std::filesystem::remove(big);
}

TEST_CASE("a profile without a knee reads and predicts as one bandwidth; the knee's fields are checked", "[time]") {
  mmv::machine_config c;
  c.s = 4;
  mmv::machine m(c);
  const auto x = m.load<mmv::word>(std::vector<mmv::word>(1 << 12, 1));
  (void)m.add(x, x);  // stream, 8 * 3 * 4096 = 98304 bytes
  const auto& r = m.costs().records()[1];
  const auto text = [](const std::string& top, const std::string& cls) {
    return "{\"schema\": \"mmvram-profile/1\", \"device\": \"d\", \"date\": \"x\", \"backend\": \"cuda\", "
           "\"sm_clock_mhz\": 0, \"memory_clock_mhz\": 0, \"bytes_per_word\": 8" + top + ", \"classes\": {\"stream\": "
           "{\"latency_ns\": 1000, \"ns_per_byte\": 0.25, \"ns_per_op\": 0, \"residual_median\": 0, \"residual_max\": 0, "
           "\"points\": 1" + cls + "}}}";
  };
  const auto old = mmv::parse_profile(text("", ""), "old.json");
  CHECK(old.l2_bytes == 0);
  CHECK(old.classes.at("stream").ns_per_byte_beyond_l2 == 0.25);
  CHECK(mmv::predict_record_ns(old, r) == 1000 + 0.25 * 98304);
  // The knee at 2^15 bytes: the rest at 1 ns per byte (by hand: 1000 + 8192 + 65536 = 74728).
  const auto knee = mmv::parse_profile(text(", \"l2_bytes\": 32768", ", \"ns_per_byte_beyond_l2\": 1"), "knee.json");
  CHECK(knee.l2_bytes == 32768);
  CHECK(knee.l2_cache_bytes == 32768);  // written before the knee was fitted: the knee was the L2
  CHECK(mmv::predict_record_ns(knee, r) == 74728);
  // The same knee as a step: every byte at 1 ns per byte once past it (1000 + 98304).
  const auto step = mmv::parse_profile(text(", \"l2_bytes\": 32768", ", \"ns_per_byte_beyond_l2\": 1, \"knee\": \"step\""),
                                       "step.json");
  CHECK(mmv::predict_record_ns(step, r) == 1000 + 98304);
  CHECK(mmv::parse_profile(text(", \"l2_bytes\": 32768", ", \"knee\": \"hinge\""), "h.json").classes.at("stream").step_at_knee == false);
  CHECK_THROWS_WITH(mmv::parse_profile(text("", ", \"knee\": \"ramp\""), "k.json"),
                    Catch::Contains("'knee' must be \"hinge\" or \"step\""));
  // A knee without a class's own bandwidth past it: the same bandwidth on both sides.
  CHECK(mmv::predict_record_ns(mmv::parse_profile(text(", \"l2_bytes\": 32768", ""), "k.json"), r) == 1000 + 0.25 * 98304);
  CHECK_THROWS_WITH(mmv::parse_profile(text(", \"l2_bytes\": -1", ""), "k.json"),
                    Catch::Contains("field 'l2_bytes' must be a whole number in [0, "));
  CHECK_THROWS_WITH(mmv::parse_profile(text(", \"l2_bytes\": 1.5", ""), "k.json"),
                    Catch::Contains("field 'l2_bytes' must be a whole number"));
  CHECK_THROWS_WITH(mmv::parse_profile(text("", ", \"ns_per_byte_beyond_l2\": -1"), "k.json"),
                    Catch::Contains("field 'ns_per_byte_beyond_l2' must be at least 0 (got -1) in class 'stream'"));
  CHECK_THROWS_WITH(mmv::parse_profile(text("", ", \"ns_per_byte_beyond_l2\": \"x\""), "k.json"),
                    Catch::Contains("field 'ns_per_byte_beyond_l2' must be a number in class 'stream'"));
}
