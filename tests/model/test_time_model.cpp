// The time model: instruction classes, predictions from records against hand-computed values on
// a small profile (serial, along the DAG and queued behind the host), the fit recovering known constants, and the
// profile file's round trip and errors.
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>

#include "model_test_util.hpp"
#include "mmvram/prediction/fit.hpp"
#include "mmvram/prediction/profile_file.hpp"
#include "mmvram/prediction/time_model.hpp"

namespace {

mmv::device_profile small_profile() {
  mmv::device_profile p;
  p.device = "test GPU";
  p.date = "2026-11-23";
  p.backend = "cuda";
  p.classes["stream"] = {1000, 0.5, 0, 0, 0, 1};  // 1 us + 2 bytes per ns
  p.classes["mmu-word/s4"] = {2000, 0.25, 0.01, 0, 0, 1};
  p.classes["mmu-word/s16"] = {9000, 0.25, 0.01, 0, 0, 1};
  p.classes["gather"] = {3000, 1.0, 0, 0, 0, 1};
  return p;
}

std::string temp_path(const char* name) { return (std::filesystem::temp_directory_path() / name).string(); }

}  // namespace

TEST_CASE("predictions from a ledger equal hand-computed times on a small profile", "[time]") {
  mmv::machine_config c;
  c.s = 4;
  mmv::machine m(c);
  const auto x = m.load<mmv::word>(std::vector<mmv::word>(16, 1));         // free
  const auto a = m.add(x, x);                                            // stream: 1000 + 0.5 * 8 * (32 + 16) = 1192
  const auto b = m.add(x, mmv::word{1});                                 // independent of a: 1000 + 0.5 * 8 * 32 = 1128
  std::vector<mmv::word> ones(16, 1);
  const auto w = m.load<mmv::word>(ones);
  const auto y = m.mmu(a, w);  // 2000 + 0.25 * 8 * (16 + 16 + 16) + 0.01 * 64 = 2096.64
  (void)b, (void)y;
  const auto p = small_profile();
  const auto& r = m.costs().records();
  CHECK(mmv::instruction_class(r[0]) == "load");
  CHECK(mmv::instruction_class(r[4]) == "mmu-word/s4");
  CHECK(mmv::predict_record_ns(p, r[0]) == 0);
  CHECK(mmv::predict_record_ns(p, r[1]) == Approx(1192));
  CHECK(mmv::predict_record_ns(p, r[2]) == Approx(1128));
  CHECK(mmv::predict_record_ns(p, r[4]) == Approx(2096.64));
  const auto t = mmv::predict_time(p, r);
  CHECK(t.serial_ns == Approx(1192 + 1128 + 2096.64));
  CHECK(t.dag_ns == Approx(1192 + 2096.64));  // b runs beside a; y waits for a only
  // An s the profile was not calibrated at takes the smallest calibrated s' >= s, else the largest.
  auto at = [&](std::int64_t s) {
    auto rec = r[4];
    rec.sizes.s = s;
    return mmv::predict_record_ns(p, rec) - 96 - 0.64;
  };
  CHECK(at(3) == Approx(2000));
  CHECK(at(12) == Approx(9000));
  CHECK(at(64) == Approx(9000));
  // Without latencies the records' bandwidth and work terms decide the DAG time: they share the
  // memory system, so a and b do not overlap (192 + 128 + 96.64 > the path a, y: 192 + 96.64).
  auto fast = p;
  fast.classes["stream"].latency_ns = 0, fast.classes["mmu-word/s4"].latency_ns = 0;
  const auto f = mmv::predict_time(fast, r);
  CHECK(f.serial_ns == Approx(192 + 128 + 96.64));
  CHECK(f.dag_ns == Approx(192 + 128 + 96.64));
}

TEST_CASE("the queued prediction overlaps the host's issue with the device's work", "[time]") {
  mmv::machine_config c;
  c.s = 4;
  mmv::machine m(c);
  const auto x = m.load<mmv::word>(std::vector<mmv::word>(16, 1));
  const auto a = m.add(x, x);            // 1192 ns in all
  const auto b = m.add(x, mmv::word{1});  // 1128 ns
  const auto y = m.mmu(a, m.load<mmv::word>(std::vector<mmv::word>(16, 1)));  // 2096.64 ns
  (void)b, (void)y;
  auto p = small_profile();
  const auto& r = m.costs().records();
  // No host times: the device always waits, queued = serial.
  CHECK(mmv::predict_time(p, r).queued_ns == Approx(1192 + 1128 + 2096.64));
  // A slow host (600 ns per VCU issue, 1500 per MMU issue):
  // a issued at 600, done 1792; b issued at 1200, done 2920; y issued at 2700, done 5016.64.
  p.classes["stream"].host_ns = 600, p.classes["mmu-word/s4"].host_ns = 1500;
  CHECK(mmv::predict_time(p, r).queued_ns == Approx(5016.64));
  // A fast host (100 ns per issue): the device is the bottleneck after the first issue.
  p.classes["stream"].host_ns = 100, p.classes["mmu-word/s4"].host_ns = 100;
  const auto t = mmv::predict_time(p, r);
  CHECK(t.queued_ns == Approx(100 + 1192 + 1128 + 2096.64));
  CHECK(t.serial_ns == Approx(1192 + 1128 + 2096.64));  // serial and DAG do not change
  CHECK(t.dag_ns == Approx(1192 + 2096.64));
  // A host far slower than the VCU: the VCU records wait for their issue, the MMU for the VCU.
  // a issued at 5000, done 6192; b issued at 10000, done 11128; y issued at 10100, done 13224.64.
  p.classes["stream"].host_ns = 5000;
  CHECK(mmv::predict_time(p, r).queued_ns == Approx(13224.64));
}

TEST_CASE("the queued prediction makes the host wait for the device before a compress", "[time]") {
  mmv::machine_config c;
  c.s = 4;
  mmv::machine m(c);
  std::vector<mmv::word> ones(16, 1), ranks(16);
  for (int i = 0; i < 16; ++i) ranks[static_cast<std::size_t>(i)] = i;
  const auto x = m.load<mmv::word>(ones);
  const auto a = m.add(x, x);  // stream: 1192 ns
  (void)m.compress(a, m.load<mmv::word>(ones), m.load<mmv::word>(ranks));  // compress: 5000 ns
  auto p = small_profile();
  p.classes["compress"] = {5000, 0, 0, 0, 0, 1};
  p.classes["stream"].host_ns = 100, p.classes["compress"].host_ns = 200;
  // a issued at 100, done 1292; the host waits until 1292, issues the compress until 1492: done 6492
  // (without the wait it would be issued at 300 and done at 6292).
  CHECK(mmv::predict_time(p, m.costs().records()).queued_ns == Approx(6492));
}

TEST_CASE("a real result adds the executor's inf/nan check: one more streaming read of it", "[time]") {
  mmv::machine_config c;
  c.s = 4;
  c.format = mmv::number_format::float64;
  mmv::machine m(c);
  const auto x = m.load<mmv::real>(std::vector<mmv::real>(16, 1.0));
  const auto a = m.add(x, x);                 // 1192 ns, then its check: 1000 + 0.5 * 8 * 16 = 1064
  const auto b = m.add(x, mmv::real{1});      // 1128 ns + 1064
  const auto y = m.mmu(a, m.load<mmv::real>(std::vector<mmv::real>(16, 1.0)));  // 2096.64 ns + 1064
  (void)b, (void)y;
  auto p = small_profile();
  p.classes["mmu-real/s4"] = p.classes["mmu-word/s4"];
  const auto& r = m.costs().records();
  CHECK(r[1].real_output);
  CHECK(r[3].where == mmv::unit::scalar);  // a load: no check is priced for it
  auto t = mmv::predict_time(p, r);
  CHECK(t.serial_ns == Approx(1192 + 1128 + 2096.64 + 3 * 1064));
  CHECK(t.queued_ns == Approx(t.serial_ns));  // no host times: the device never waits
  // The checks queue in program order after their results: a's ends at 2256, b's at 3320, y's
  // (y done at 1192 + 2096.64) at 4384.
  CHECK(t.dag_ns == Approx(4384));
  // A graph profile's mmu-real constants hold the product's check already.
  p.context = "graph";
  t = mmv::predict_time(p, r);
  CHECK(t.serial_ns == Approx(1192 + 1128 + 2096.64 + 2 * 1064));
  // Word results are not checked.
  mmv::machine w(mmv::machine_config{});
  (void)w.add(w.load<mmv::word>(std::vector<mmv::word>(16, 1)), mmv::word{1});
  CHECK_FALSE(w.costs().records()[1].real_output);
}

TEST_CASE("an MMU product is priced by its operands, words or reals, whatever the run's format", "[time]") {
  mmv::machine_config c;
  c.s = 4;
  c.format = mmv::number_format::float64;
  c.word_bits = 64;
  mmv::machine m(c);
  const auto flags = m.load<mmv::word>(std::vector<mmv::word>(16, 1));
  const auto x = m.load<mmv::real>(std::vector<mmv::real>(16, 1.0));
  (void)m.mmu(flags, m.load<mmv::word>(std::vector<mmv::word>(16, 1)));  // record 3, after its weights' load
  (void)m.mmu(x, m.load<mmv::real>(std::vector<mmv::real>(16, 1.0)));    // record 5
  const auto& r = m.costs().records();
  CHECK(mmv::instruction_class(r[3]) == "mmu-word/s4");
  CHECK(mmv::instruction_class(r[5]) == "mmu-real/s4");
  auto p = small_profile();
  CHECK(mmv::predict_record_ns(p, r[3]) == Approx(2096.64));  // the word class, as in an integer run
  CHECK_THROWS_AS(mmv::predict_record_ns(p, r[5]), mmv::model_error);  // no mmu-real class
  p.classes["mmu-real/s4"] = {500, 0.125, 0, 0, 0, 1};
  CHECK(mmv::predict_record_ns(p, r[5]) == Approx(500 + 0.125 * 8 * 48));
  CHECK(mmv::predict_record_ns(p, r[3]) == Approx(2096.64));
}

TEST_CASE("the fit recovers known constants from exact points", "[time]") {
  std::vector<double> bytes, work, ns;
  for (double m = 256; m <= (1 << 24); m *= 4) {
    bytes.push_back(24 * m), work.push_back(16 * m);
    ns.push_back(4000 + 0.0003 * 24 * m + 0.002 * 16 * m);
  }
  const auto with_work = mmv::fit_class(bytes, work, ns, false);
  CHECK(with_work.ns_per_op == 0);
  CHECK(with_work.points == static_cast<int>(ns.size()));
  const auto m = mmv::fit_class(bytes, std::vector<double>(ns.size(), 0.0), ns, false);
  CHECK(m.latency_ns == Approx(4000).epsilon(1e-6));
  CHECK(m.ns_per_byte == Approx(0.0003 + 0.002 * 16 / 24).epsilon(1e-6));
  CHECK(m.residual_max < 1e-9);
  // A negative constant is dropped: points with no latency at all.
  std::vector<double> b2{1e3, 1e4, 1e5}, w2{0, 0, 0}, t2{10, 100, 1000};
  const auto z = mmv::fit_class(b2, w2, t2, false);
  CHECK(z.latency_ns >= 0);
  CHECK(z.ns_per_byte == Approx(0.01).epsilon(1e-6));
  // fit_profile gives each class the median host issue time of its points (0 where none was kept).
  mmv::device_profile p;
  mmv::fit_profile(p, {{"stream", "add", 256, 16, 1e3, 0, 10, 0, 300}, {"stream", "add", 1024, 16, 1e4, 0, 100, 0, 100},
                       {"stream", "add", 4096, 16, 1e5, 0, 1000, 0, 200}, {"gather", "gather", 256, 16, 1e3, 0, 10, 0, 0},
                       {"gather", "gather", 1024, 16, 1e4, 0, 100, 0, 0}, {"gather", "gather", 4096, 16, 1e5, 0, 1000, 0, 0}});
  CHECK(p.classes.at("stream").host_ns == 200);
  CHECK(p.classes.at("gather").host_ns == 0);
}

TEST_CASE("a profile survives a write and a read; bad files are one clear error", "[time]") {
  auto p = small_profile();
  p.sm_clock_mhz = 1980;
  p.classes["stream"].host_ns = 2500;
  p.points.push_back({"stream", "add", 256, 16, 6144, 0, 4000, 4072, 2600});
  const auto path = temp_path("mmvram_test_profile.json");
  mmv::write_profile(path, p);
  const auto q = mmv::read_profile(path);
  CHECK(q.device == p.device);
  CHECK(q.sm_clock_mhz == 1980);
  REQUIRE(q.classes.size() == 4);
  CHECK(q.classes.at("mmu-word/s4").ns_per_op == 0.01);
  CHECK(q.classes.at("stream").latency_ns == 1000);
  CHECK(q.classes.at("stream").host_ns == 2500);
  REQUIRE(q.points.size() == 1);
  CHECK(q.points[0].host_ns == 2600);
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
