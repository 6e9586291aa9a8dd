// Safe failure for the newer inputs: device profiles (depth, size, escapes, timings, constants),
// FIFOs and devices given as input or output files, exact 64-bit values in binary output, memory
// and work estimates that follow s and the run's longest vector, the order of the size checks,
// validation before a sweep writes rows, and the environment's limits. Every refused case exits 2
// with one line, quickly (the commands run under a time and memory cap).
#include "catch.hpp"
#include "tool_process.hpp"

#include <sys/stat.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <regex>
#include <set>
#include <vector>

using mmv::test::run_tool;

namespace {

mmv::test::tool_result run_capped(const std::vector<std::string>& args, int limit_s = 30) {
  return run_tool(args, "", limit_s);
}

void require_error(const std::vector<std::string>& args, const std::string& fragment, int limit_s = 30) {
  const auto r = run_capped(args, limit_s);
  INFO("stderr: " << r.err << "\nstdout: " << r.out);
  CHECK(r.code == 2);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK(r.err.find(fragment) != std::string::npos);
  CHECK(r.out.empty());
}

// Sets an environment variable for the commands of one scope (the tool inherits it).
struct scoped_env {
  std::string name;
  scoped_env(std::string n, const std::string& value) : name(std::move(n)) { ::setenv(name.c_str(), value.c_str(), 1); }
  ~scoped_env() { ::unsetenv(name.c_str()); }
};

// A valid profile with one class per class the sscr/matmul-scan runs below use; `device` and
// `measured` and `latency` are spliced in as JSON text.
std::string profile(const std::string& device = "\"test GPU\"", const std::string& measured = "4000",
                    const std::string& latency = "1000") {
  std::string classes;
  for (const std::string c : {"stream", "gather", "scatter", "compress", "mmu-word/s16", "mmu-real/s16", "block-prefix", "revspec"})
    classes += std::string(classes.empty() ? "" : ", ") + "\"" + c + "\": {\"latency_ns\": " + latency +
               ", \"ns_per_byte\": 0.01, \"ns_per_op\": 0.001, \"residual_median\": 0, \"residual_max\": 0, \"points\": 1}";
  return "{\"schema\": \"mmvram-profile/1\", \"device\": " + device + ", \"date\": \"2026-01-01\", \"backend\": \"cuda\", "
         "\"sm_clock_mhz\": 0, \"memory_clock_mhz\": 0, \"bytes_per_word\": 8, \"classes\": {" + classes + "}, "
         "\"training_points\": [{\"class\": \"stream\", \"op\": \"add\", \"m\": 256, \"s\": 16, \"bytes\": 6144, "
         "\"work\": 0, \"measured_ns\": " + measured + ", \"predicted_ns\": 1}, {\"class\": \"stream\", \"op\": \"add\", "
         "\"m\": 1024, \"s\": 16, \"bytes\": 24576, \"work\": 0, \"measured_ns\": 5000, \"predicted_ns\": 1}]}";
}

}  // namespace

TEST_CASE("a deeply nested, huge or endless profile is one error in every command that reads one") {
  mmv::test::scratch_dir dir("bad-profile");
  const auto deep = dir.put("deep.json", std::string(100000, '['));
  const auto out = (dir / "refit.json").string(), csv = (dir / "s.csv").string();
  for (const std::string& p : {deep, std::string("/dev/zero"), std::string("/dev/urandom")}) {
    CAPTURE(p);
    const std::string why = p == deep ? "nested deeper than 64 levels" : "is not a regular file";
    require_error({"predict", "sscr", "--n", "16", "--profile", p}, why);
    require_error({"run", "sscr", "--n", "16", "--profile", p}, why);
    require_error({"sweep", "sscr", "--n", "16", "--out", csv, "--profile", p, "--quiet"}, why);
    require_error({"calibrate", "--refit", p, "--out", out}, why);
  }
  CHECK_FALSE(std::filesystem::exists(out));
  CHECK((!std::filesystem::exists(csv) || mmv::test::read_text(csv).empty()));
}

TEST_CASE("profile text is decoded as JSON and shown escaped") {
  mmv::test::scratch_dir dir("profile-text");
  const auto p = dir.put("esc.json", profile("\"GPU \\u001b[31mred\\u001b[0m\""));
  const auto r = run_capped({"predict", "sscr", "--n", "64", "--profile", p});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("(profile: GPU \\x1b[31mred\\x1b[0m)") != std::string::npos);
  CHECK(r.out.find('\x1b') == std::string::npos);
  // A constant so large that the predicted time overflows: an error, not "inf us".
  require_error({"predict", "sscr", "--n", "64", "--profile", dir.put("huge.json", profile("\"g\"", "4000", "1e308"))},
                "the predicted device time is not finite");
}

TEST_CASE("calibrate --refit refuses timings of 0 or below instead of writing nan") {
  mmv::test::scratch_dir dir("refit-timings");
  const auto out = (dir / "refit.json").string();
  for (const std::string t : {"0", "-5"}) {
    CAPTURE(t);
    require_error({"calibrate", "--refit", dir.put("p.json", profile("\"g\"", t)), "--out", out},
                  "field 'measured_ns' must be positive");
    CHECK_FALSE(std::filesystem::exists(out));
  }
  const auto good = run_capped({"calibrate", "--refit", dir.put("p.json", profile()), "--out", out});
  REQUIRE(good.code == 0);
  const std::string written = mmv::test::read_text(out);
  CHECK(written.find("nan") == std::string::npos);
  CHECK(written.find("inf") == std::string::npos);
}

TEST_CASE("a FIFO given as an input or output file is refused at once") {
  mmv::test::scratch_dir dir("fifo");
  const auto fifo = (dir / "fifo").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const auto x = dir.put("x.txt", "1 2 3 4\n"), f = dir.put("f.txt", "1 0 0 1\n"), a = dir.put("a.txt", "0.5 0.5 1 1\n");
  const auto mtx = dir.put("m.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n2 2 2\n");
  const std::string not_regular = "is not a regular file (devices and pipes are not read)";
  const std::vector<std::vector<std::string>> inputs = {
      {"run", "matmul-scan", "--values", fifo},
      {"run", "sscr", "--values", x, "--flags", fifo},
      {"run", "decayed-scan-stable", "--mode", "float64", "--values", a, "--flags", f, "--decays", fifo},
      {"run", "elementwise-product", "--values", x, "--values2", fifo},
      {"run", "spmv", "--matrix", fifo},
      {"run", "spmv", "--mode", "float64", "--matrix", mtx, "--vector", fifo},
      {"run", "sscr", "--n", "16", "--profile", fifo},
      {"predict", "sscr", "--n", "16", "--profile", fifo},
      {"calibrate", "--refit", fifo, "--out", (dir / "o.json").string()},
  };
  for (const auto& args : inputs) {
    CAPTURE(args);
    const auto start = std::chrono::steady_clock::now();
    require_error(args, not_regular, 20);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
  }
  // Outputs: a FIFO without a reader is refused instead of waited on.
  require_error({"run", "sscr", "--n", "16", "--output", fifo}, "cannot write the output file '" + fifo + "': it is a pipe (FIFO) with no reader", 20);
  require_error({"run", "sscr", "--n", "16", "--dag", fifo}, "cannot write the DAG file '" + fifo + "': it is a pipe (FIFO) with no reader", 20);
  require_error({"calibrate", "--refit", dir.put("p.json", profile()), "--out", fifo}, "it is a pipe (FIFO) with no reader", 20);
}

TEST_CASE("64-bit values beyond 2^53 are written exactly or refused, never rounded") {
  mmv::test::scratch_dir dir("exact64");
  const auto x = dir.put("x.txt", "9007199254740993\n");
  const auto f64 = (dir / "y.f64").string(), txt = (dir / "y.txt").string(), i64 = (dir / "y.i64").string();
  require_error({"run", "matmul-scan", "--values", x, "--bits", "64", "--output", f64},
                "value 9007199254740993 at index 0 does not fit .f64 exactly");
  CHECK_FALSE(std::filesystem::exists(f64));
  REQUIRE(run_capped({"run", "matmul-scan", "--values", x, "--bits", "64", "--output", txt}).code == 0);
  CHECK(mmv::test::read_text(txt) == "9007199254740993\n");
  REQUIRE(run_capped({"run", "matmul-scan", "--values", x, "--bits", "64", "--output", i64}).code == 0);
  const std::string bytes = mmv::test::read_text(i64);
  REQUIRE(bytes.size() == 8);
  std::int64_t v = 0;
  std::memcpy(&v, bytes.data(), 8);
  CHECK(v == 9007199254740993);
  // Reals written as integers must be whole and in range (no out-of-range conversion).
  const auto r = dir.put("r.txt", "3e9\n");
  require_error({"run", "matmul-scan", "--mode", "float64", "--values", r, "--output", (dir / "y.i32").string()},
                "does not fit .i32 exactly");
}

TEST_CASE("the memory estimate follows s and the run's longest vector; s^3 work is refused before it starts") {
  {
    scoped_env limit("MMVRAM_MEMORY_LIMIT_MB", "1000");
    require_error({"run", "elementwise-product", "--s", "4096", "--n", "2^14"},
                  "out of memory: elementwise-product with n = 16384, s = 4096 needs about 3.5 GiB", 20);
    require_error({"run", "state-passing", "--mode", "float64", "--n", "2^14", "--heads", "4", "--rows", "8", "--cols", "8"},
                  "in its longest vector at 56 bytes each", 20);
  }
  {
    scoped_env limit("MMVRAM_MEMORY_LIMIT_MB", "10000");
    require_error({"run", "state-passing", "--mode", "float32", "--n", "2^16", "--heads", "4", "--rows", "8", "--cols", "8"},
                  "needs about 14 GiB", 20);
  }
  require_error({"run", "state-passing", "--mode", "float32", "--s", "4096", "--n", "1"}, "out of memory: state-passing", 20);
  require_error({"run", "decayed-scan-stable", "--mode", "float64", "--s", "4096", "--n", "1"},
                "too much work: decayed-scan-stable with n = 1, s = 4096 would simulate about 1.38e+11 operations", 20);
  {
    scoped_env limit("MMVRAM_WORK_LIMIT", "2^20");
    require_error({"run", "sscr", "--n", "2^16"}, "more than the limit of 1.05e+06 (MMVRAM_WORK_LIMIT", 20);
  }
  // Ordinary runs are unaffected, under a small limit too.
  scoped_env limit("MMVRAM_MEMORY_LIMIT_MB", "1000");
  for (const std::vector<std::string> args : {std::vector<std::string>{"run", "elementwise-product", "--n", "2^12", "--format", "csv"},
                                              {"run", "state-passing", "--mode", "float32", "--n", "2^10", "--format", "csv"},
                                              {"run", "decayed-scan-stable", "--mode", "float64", "--n", "2^14", "--format", "csv"}}) {
    CAPTURE(args);
    CHECK(run_capped(args).code == 0);
  }
}

TEST_CASE("--bigbird's size is checked before anything of size n is drawn") {
  const auto start = std::chrono::steady_clock::now();
  require_error({"run", "spmv", "--bigbird", "2^14,1", "--n", "2^28"}, "out of memory: --bigbird with --n 268435456 needs about", 20);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
}

TEST_CASE("a sweep validates its backend and profile once, before writing rows") {
  mmv::test::scratch_dir dir("sweep-validate");
  const auto csv = (dir / "s.csv").string();
  const auto r = run_capped({"sweep", "sscr", "--n", "16..64", "--out", csv, "--backend", "cuda", "--quiet"});
  INFO(r.err);
  CHECK(r.code == 2);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK(r.err.find("backend 'cuda'") != std::string::npos);
  CHECK((!std::filesystem::exists(csv) || mmv::test::read_text(csv).empty()));
  require_error({"sweep", "sscr", "--n", "16..64", "--out", csv, "--profile", dir.put("bad.json", "{\"schema\": 1"), "--quiet"},
                "device profile");
  CHECK((!std::filesystem::exists(csv) || mmv::test::read_text(csv).empty()));
}

TEST_CASE("options and environment values that were accepted silently") {
  require_error({"run", "sscr", "--n", "16", "--repeat", "3"}, "--repeat sets the timed runs on a device: it needs --backend cuda");
  require_error({"sweep", "sscr", "--n", "16", "--out", "x.csv", "--repeat", "3"}, "--repeat sets the timed runs");
  require_error({"calibrate", "--backend", "cuda", "--out", "x.json", "--sm-clock", "-5"}, "--sm-clock must be at least 0 MHz (got -5)");
  require_error({"calibrate", "--backend", "cuda", "--out", "x.json", "--memory-clock", "-1"}, "--memory-clock must be at least 0 MHz");
  for (const std::string bad : {"abc", "0", "-5", "nan", "inf", "12x"}) {
    CAPTURE(bad);
    scoped_env limit("MMVRAM_MEMORY_LIMIT_MB", bad);
    require_error({"run", "sscr", "--n", "16"}, "MMVRAM_MEMORY_LIMIT_MB must be a number of MiB in (0, 2^40] (got '" + bad + "')");
  }
  for (const std::string bad : {"abc", "0", "-5"}) {
    CAPTURE(bad);
    scoped_env limit("MMVRAM_WORK_LIMIT", bad);
    require_error({"run", "sscr", "--n", "16"}, "MMVRAM_WORK_LIMIT");
  }
  // A subnormal is a number.
  CHECK(run_capped({"run", "sscr", "--n", "16", "--density", "1e-310"}).code == 0);
  mmv::test::scratch_dir dir("subnormal");
  CHECK(run_capped({"run", "matmul-scan", "--mode", "float64", "--values", dir.put("x.txt", "1e-310 2\n")}).code == 0);
}

TEST_CASE("the signed draw spans [-2^62, 2^62] without overflow") {
  mmv::test::scratch_dir dir("signed-draw");
  const auto out = (dir / "y.txt").string();
  const auto r = run_capped({"run", "elementwise-product", "--n", "64", "--bits", "64", "--signed", "--max-value", "1",
                             "--format", "csv"});
  CHECK(r.code == 0);
  // matmul-scan's output at n = 1 is its input: the drawn value itself.
  bool negative = false, positive = false;
  for (int seed = 1; seed <= 16; ++seed) {
    const auto one = run_capped({"run", "matmul-scan", "--n", "1", "--bits", "64", "--signed", "--max-value", "2^62",
                                 "--seed", std::to_string(seed), "--output", out});
    REQUIRE(one.code == 0);
    const long long v = std::stoll(mmv::test::read_text(out));
    CHECK(v >= -(1LL << 62));
    CHECK(v <= (1LL << 62));
    negative |= v < 0, positive |= v > 0;
  }
  CHECK(negative);
  CHECK(positive);
}

TEST_CASE("every op of a --trace is an instruction of mmvram instructions") {
  const auto list = run_capped({"instructions"});
  REQUIRE(list.code == 0);
  const auto trace = run_capped({"run", "sscr", "--n", "64", "--trace", "--format", "json"});
  REQUIRE(trace.code == 0);
  std::set<std::string> ops;  // every "op" of the report, at any depth
  const auto collect = [&ops](const nlohmann::json& j, const auto& self) -> void {
    if (j.is_object() && j.contains("op") && j["op"].is_string()) ops.insert(j["op"].get<std::string>());
    if (j.is_structured())
      for (const auto& v : j) self(v, self);
  };
  collect(nlohmann::json::parse(trace.out), collect);
  std::set<std::string> names;  // the first word of every line of the table
  for (std::size_t at = 0; at < list.out.size();) {
    const auto end = list.out.find('\n', at);
    const std::string line = list.out.substr(at, end - at);
    names.insert(line.substr(0, line.find(' ')));
    at = end == std::string::npos ? list.out.size() : end + 1;
  }
  REQUIRE(ops.count("load"));
  for (const auto& op : ops) {
    CAPTURE(op);
    CHECK(names.count(op));
  }
  CHECK(std::regex_search(trace.out, std::regex("\"op\": \"load\",\\s*\"name\": \"f\"")));
}

TEST_CASE("state passing over 65536 heads runs at the default B = 32 (its indices stay below 2^31)") {
  const auto wide = run_capped({"run", "state-passing", "--mode", "float32", "--heads", "65536", "--rows", "1", "--cols", "1",
                                "--n", "1"});
  INFO(wide.err);
  CHECK(wide.code == 0);
  CHECK(wide.out.find("B = 32 bits, float32") != std::string::npos);
  CHECK(wide.out.find("verified   true") != std::string::npos);
}

TEST_CASE("help and list run in 650 MB of address space (cuBLAS is loaded only by a cuda machine)") {
  if (mmv::test::tool_has_asan) return;  // ASan reserves terabytes of shadow: ulimit -v cannot apply
  for (const char* command : {"help", "list"}) {
    const std::string cmd = "ulimit -v 650000 && " + mmv::test::shell_quote(MMVRAM_TOOL) + " " + command + " >/dev/null 2>&1";
    CAPTURE(command);
    CHECK(std::system(cmd.c_str()) == 0);
  }
}
