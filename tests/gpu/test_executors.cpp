// The cuda backend's three executors (machine_config::executor: in-order, graph, dag) run the
// same device operations, so every registered algorithm the cuda backend runs must give
// bit-identical outputs and identical ledgers under all three, on fresh random inputs, and an
// error (a word that overflows B bits, a bad flag, a float overflow) must surface as the same
// error naming the same instruction. A graph or dag run reports a positive device time, and a
// graph calibration gives the profile that predicts it.
#include <cstdint>
#include <cstring>
#include <functional>
#include <utility>
#include <string>
#include <vector>

#include <unistd.h>

#include <filesystem>

#include "backend_compare.hpp"
#include "catch.hpp"
#include "commands.hpp"
#include "inputs.hpp"
#include "mmvram/gpu/backend/cuda_backend.hpp"
#include "mmvram/harness/registry.hpp"
#include "mmvram/prediction/profile_file.hpp"
#include "mmvram/prediction/time_model.hpp"
#include "runner.hpp"
#include "test_seed.hpp"

namespace {

using namespace mmv;

const std::vector<std::string> executors{"in-order", "graph", "dag"};

// What one run gave: its outputs and ledger, or the error it raised.
struct run_result {
  std::string error_kind;   // "", "width" or "model"
  std::string instruction;  // a width error's instruction
  std::string message;      // the error's message
  algorithm_outcome outcome;
  std::vector<instruction_record> records;
  double span_ns = 0;
};

machine_config config_of(const std::string& executor, number_format f, int s, int bits, std::int64_t k) {
  machine_config c = gpu::backend_config("cuda", f, s, bits, k);
  c.executor = executor;
  return c;
}

run_result run_on(const std::string& executor, const algorithm_entry& e, const algorithm_input& in, number_format f, int s,
                  int bits) {
  run_result r;
  machine m(config_of(executor, f, s, bits, e.iterated_addition_limit ? e.iterated_addition_limit(in.n) : 0));
  try {
    r.outcome = e.run(m, in);
    m.collect_timing();
  } catch (const width_error& err) {
    r.error_kind = "width", r.instruction = err.instruction, r.message = err.what();
    return r;
  } catch (const model_error& err) {
    r.error_kind = "model", r.message = err.what();
    return r;
  }
  r.records = m.costs().records();
  r.span_ns = m.costs().span_ns();
  return r;
}

// Bit-identical reals (NaN included).
bool same_bits(const std::vector<real>& a, const std::vector<real>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(real)) == 0);
}

// Requires `got` (executor `name`) to be `want` (in-order) exactly.
void require_same(const run_result& want, const run_result& got, const std::string& name) {
  INFO(name << ": in-order error '" << want.message << "', this one '" << got.message << "'");
  REQUIRE(got.error_kind == want.error_kind);
  REQUIRE(got.instruction == want.instruction);
  if (!want.error_kind.empty()) return;
  REQUIRE(got.outcome.verified == want.outcome.verified);
  REQUIRE(got.outcome.output_words == want.outcome.output_words);
  REQUIRE(same_bits(got.outcome.output_reals, want.outcome.output_reals));
  REQUIRE(got.records.size() == want.records.size());
  bool computes = false;
  for (std::size_t i = 0; i < got.records.size(); ++i) {
    REQUIRE(got.records[i].op == want.records[i].op);
    REQUIRE(got.records[i].price == want.records[i].price);
    computes = computes || got.records[i].where != unit::scalar;
  }
  if (computes) REQUIRE(got.span_ns > 0);
}

// Runs one case under every executor and compares each with in-order; returns the kind of
// error in-order raised ("" for none).
std::string compare_executors(const algorithm_entry& e, number_format f, int s, int bits, const tool::input_options& opt) {
  const algorithm_input in = tool::make_input(e, opt, f, bits);
  INFO(e.name << " " << to_string(f) << " n=" << opt.n << " s=" << s << " B=" << bits << " density=" << opt.density
              << " seed=" << opt.seed);
  const run_result want = run_on("in-order", e, in, f, s, bits);
  for (std::size_t k = 1; k < executors.size(); ++k) require_same(want, run_on(executors[k], e, in, f, s, bits), executors[k]);
  return want.error_kind;
}

}  // namespace

TEST_CASE("every algorithm gives bit-identical results under the in-order, graph and dag executors", "[backends]") {
  gpu::register_cuda_backend();
  std::uint64_t seed = mmv::test::fresh_seed();
  for (const auto& entry : algorithm_table()) {
    if (!entry.cuda_backend) continue;
    for (const number_format f : gpu::formats_of(entry.name)) {
      const bool matrix = facts_of(entry.shape).square;
      const std::vector<std::int64_t> ns = matrix ? std::vector<std::int64_t>{1, 5} : std::vector<std::int64_t>{1, 17, 1000, 4099};
      for (const std::int64_t n : ns)
        for (const int s : {2, 3, 16})
          for (const double density : {0.0, 1.0, 0.05}) {
            tool::input_options opt;
            opt.n = n, opt.density = density, opt.seed = ++seed;
            (void)compare_executors(entry, f, s, f == number_format::float64 ? 64 : 32, opt);
          }
    }
  }
}

TEST_CASE("width errors surface the same way under every executor, also before a compress", "[backends]") {
  gpu::register_cuda_backend();
  std::uint64_t seed = mmv::test::fresh_seed();
  // B = 8 with values up to 100: the scans overflow somewhere; scd compresses its segments.
  int width_errors = 0;
  for (const char* name : {"matmul-scan", "sscr", "scd", "block-sscr", "schwartz-segmented-scan"})
    for (const double density : {0.5, 0.01})
      for (const std::int64_t n : {std::int64_t{3}, std::int64_t{3000}}) {
        tool::input_options opt;
        opt.n = n, opt.density = density, opt.seed = ++seed, opt.max_value = 100;
        width_errors += compare_executors(find_algorithm(name), number_format::integer, 16, 8, opt) == "width";
      }
  CHECK(width_errors >= 5);
}

namespace {

// The message of the error `body` raises on a fresh cuda machine under `executor` ("" if none).
template <class F>
std::string error_of(const std::string& executor, number_format f, int bits, F body) {
  machine m(config_of(executor, f, 4, bits, 0));
  try {
    body(m);
    m.collect_timing();
  } catch (const width_error& e) {
    return std::string("width: ") + e.what();
  } catch (const model_error& e) {
    return std::string("model: ") + e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("an error surfaces the same way under every executor", "[backends]") {
  gpu::register_cuda_backend();
  // Two independent instructions overflow (one element each): the first in program order is
  // reported, also where the dag executor runs them on two streams.
  const auto two_overflows = [](machine& m) {
    const auto x = m.load<word>(std::vector<word>{100, 1, 2, 3});
    const auto y = m.load<word>(std::vector<word>{-100, 1, 2, 3});
    const auto a = m.add(x, x), b = m.sub(y, x);
    (void)m.read(m.add(b, a));
  };
  // A width error found at a compress (its count is read back), then a mask that is not 0/1.
  const auto at_compress = [](machine& m) {
    const auto x = m.load<word>(std::vector<word>{120, 1, 2, 3});
    const auto mask = m.load<word>(std::vector<word>{1, 0, 1, 0}), pos = m.load<word>(std::vector<word>{0, 1, 1, 2});
    (void)m.compress(m.add(x, x), mask, pos);
  };
  const auto bad_mask = [](machine& m) {
    const auto x = m.load<word>(std::vector<word>{1, 2, 3, 4});
    const auto mask = m.load<word>(std::vector<word>{1, 0, 0, 0}), pos = m.load<word>(std::vector<word>{0, 1, 1, 1});
    const auto twice = m.add(mask, mask);  // 2 at position 0: not a flag
    (void)m.read(m.compress(x, twice, pos));
  };
  const auto gather_out_of_range = [](machine& m) {
    const auto x = m.load<word>(std::vector<word>{1, 2, 3, 4});
    (void)m.read(m.gather(x, m.add(m.load<word>(std::vector<word>{0, 1, 2, 0}), word{2})));
  };
  for (const auto& [name, body] : std::vector<std::pair<std::string, std::function<void(machine&)>>>{
           {"two overflows", two_overflows}, {"at compress", at_compress}, {"bad mask", bad_mask},
           {"gather", gather_out_of_range}}) {
    const std::string want = error_of("in-order", number_format::integer, 8, body);
    INFO(name << ": in-order raised '" << want << "'");
    REQUIRE(!want.empty());
    if (name == "two overflows") REQUIRE(want.find("add") != std::string::npos);
    for (const std::string& ex : {"graph", "dag"}) CHECK(error_of(ex, number_format::integer, 8, body) == want);
  }
}

TEST_CASE("a float overflow is the same first non-finite result under every executor", "[backends]") {
  gpu::register_cuda_backend();
  std::vector<std::string> seen;
  for (const std::string& ex : executors) {
    machine m(config_of(ex, number_format::float32, 4, 32, 0));
    const auto x = m.load<real>(std::vector<real>{1, 2, 3e30, 4});
    const auto y = m.load<real>(std::vector<real>{1e30, 2, 3, 4});
    const auto a = m.mul(y, y), b = m.mul(x, x);  // independent: inf at 0, then at 2
    (void)m.read(m.add(a, b));
    const auto bad = m.first_nonfinite();
    REQUIRE(bad.has_value());
    CHECK(bad->index == 0);
    seen.push_back(bad->instruction + "#" + std::to_string(bad->sequence) + "@" + std::to_string(bad->index));
  }
  CHECK(seen[1] == seen[0]);
  CHECK(seen[2] == seen[0]);
}

TEST_CASE("calibrate --executor graph writes a graph profile that predicts graph and dag runs", "[backends]") {
  gpu::register_cuda_backend();
  const auto path = std::filesystem::temp_directory_path() / ("mmvram-graph-profile-" + std::to_string(::getpid()) + ".json");
  tool::calibrate_options c;
  c.executor = "graph", c.out = path.string(), c.max_m = 1 << 12, c.mmu_s = {16}, c.repeat = 3, c.quiet = true;
  REQUIRE(tool::command_calibrate(c) == 0);
  const device_profile p = read_profile(c.out);
  CHECK(p.context == "graph");
  REQUIRE(p.classes.count("stream") == 1);
  CHECK(p.classes.at("stream").points == 15);  // 5 instructions at m = 2^8, 2^10, 2^12
  for (const std::string cls : {"mmu-word/s16/row", "mmu-real/s16/row", "concurrent:mmu-word/s16/row"}) {
    INFO(cls);
    REQUIRE(p.classes.count(cls) == 1);
    CHECK(p.classes.at(cls).points == 1);  // one product of one row, timed once per format
  }
  for (const std::string ex : {"graph", "dag"}) {
    tool::run_options o;
    o.algorithm = "sscr", o.input.n = 1 << 14, o.backend = "cuda", o.executor = ex, o.repeat = 2, o.profile = c.out;
    const tool::run_report r = tool::run_once(o);
    INFO(ex);
    REQUIRE(r.measured);
    CHECK(r.executor == ex);
    CHECK(r.measured_span_ns > 0);
    CHECK(r.measured_end_to_end_ns == r.measured_span_ns);
    CHECK(r.measured_ns == 0);
    REQUIRE(r.predicted_time.has_value());
    CHECK(r.predicted_time->serial_ns > 0);
    CHECK(tool::csv_row(r).find(",cuda," + ex + ",") != std::string::npos);
  }
  // A timed in-order run prices each instruction: integer words have no inf/nan checks, so the
  // per-instruction predictions add up to the serial prediction.
  tool::run_options o;
  o.algorithm = "sscr", o.input.n = 1 << 14, o.backend = "cuda", o.executor = "in-order", o.repeat = 2, o.profile = c.out;
  const tool::run_report r = tool::run_once(o);
  REQUIRE(r.instruction_predicted_ns.size() == r.instructions.size());
  REQUIRE(r.instruction_classes.size() == r.instructions.size());
  double sum = 0;
  for (std::size_t i = 0; i < r.instructions.size(); ++i) {
    CHECK(r.instruction_classes[i] == instruction_class(r.instructions[i]));
    if (r.instructions[i].where != unit::scalar) CHECK(r.instructions[i].measured_ns > 0);
    sum += r.instruction_predicted_ns[i];
  }
  REQUIRE(r.predicted_time.has_value());
  CHECK(sum == Approx(r.predicted_time->serial_ns));
  std::filesystem::remove(path);
}
