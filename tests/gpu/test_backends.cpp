// One algorithm, two executors: every registered algorithm, in every number format it supports,
// runs on the simulate and the cuda backends on the same fresh random inputs and edge cases.
// Integer outputs must be bit-identical, float outputs within the run's stated tolerance of
// each other, and the two ledgers identical record for record (op, unit, region, length,
// price, depth): the same algorithm file issued the same instructions on both.
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "catch.hpp"
#include "commands.hpp"
#include "inputs.hpp"
#include "mmvram/prediction/profile_file.hpp"
#include "backend_compare.hpp"
#include "mmvram/gpu/backend/cuda_backend.hpp"
#include "mmvram/harness/random_inputs.hpp"
#include "test_seed.hpp"

namespace {

using namespace mmv;

using gpu::backend_config;

// Runs `entry` on both backends (backend_compare.hpp) and requires the same ledger and outputs.
void compare_backends(const algorithm_entry& entry, number_format f, int s, int bits, const tool::input_options& opt) {
  gpu::backend_case c;
  c.algorithm = entry.name, c.format = f, c.s = s, c.bits = bits, c.n = opt.n, c.density = opt.density, c.seed = opt.seed;
  c.signed_values = opt.signed_values, c.max_value = opt.max_value.value_or(0);
  const std::string difference = gpu::compare_backends(c);
  INFO(entry.name << " " << to_string(f) << " n=" << opt.n << " s=" << s << " B=" << bits << " density=" << opt.density
                  << " seed=" << opt.seed << ": " << difference);
  REQUIRE(difference.empty());
}


}  // namespace

TEST_CASE("every algorithm gives the same result and ledger on the simulate and cuda backends", "[backends]") {
  gpu::register_cuda_backend();
  std::uint64_t seed = mmv::test::fresh_seed();
  for (const auto& entry : algorithm_table()) {
    if (!entry.cuda_backend) continue;  // the registry: the cuda backend does not run it
    for (const number_format f : gpu::formats_of(entry.name)) {
      const bool matrix = facts_of(entry.shape).square;
      const std::vector<std::int64_t> ns = matrix ? std::vector<std::int64_t>{1, 2, 5} : std::vector<std::int64_t>{1, 2, 17, 255, 1000, 4099};
      for (const std::int64_t n : ns)
        for (const int s : {2, 3, 16, 128})
          for (const double density : {0.0, 1.0, 0.05}) {
            tool::input_options opt;
            opt.n = n, opt.density = density, opt.seed = ++seed;
            const int bits = f == number_format::float64 ? 64 : 32;
            compare_backends(entry, f, s, bits, opt);
          }
    }
  }
}

TEST_CASE("a large run and signed 64-bit words agree bit for bit", "[backends]") {
  gpu::register_cuda_backend();
  std::uint64_t seed = mmv::test::fresh_seed();
  for (const char* name : {"matmul-scan", "sscr", "scd", "block-sscr", "schwartz-segmented-scan"}) {
    tool::input_options opt;
    opt.n = (std::int64_t{1} << 18) + 7, opt.density = 0.001, opt.seed = ++seed;
    compare_backends(find_algorithm(name), number_format::integer, 16, 32, opt);
    opt.signed_values = true, opt.n = 5000, opt.max_value = std::int64_t{1} << 40;
    compare_backends(find_algorithm(name), number_format::integer, 8, 64, opt);  // the limb-split MMU path
  }
  tool::input_options opt;
  opt.n = 3000, opt.seed = ++seed;
  compare_backends(find_algorithm("elementwise-product"), number_format::integer, 4, 64, opt);
}

TEST_CASE("a word that overflows B bits is a width error on both backends", "[backends]") {
  gpu::register_cuda_backend();
  for (const std::string backend : {"simulate", "cuda"}) {
    machine m(backend_config(backend, number_format::integer, 4, 8));
    const auto x = m.load<word>(std::vector<word>{100, 27, 1, 0, 5});
    CHECK_THROWS_AS(m.read(m.add(x, x)), width_error);
    const auto idx = m.load<word>(std::vector<word>{0, 9});
    CHECK_THROWS_AS(m.read(m.gather(x, idx)), model_error);
  }
}

TEST_CASE("word bounds carried through resize, shift, select, scatter and the MMU keep 64-bit products exact", "[backends]") {
  // Each product's operand holds large odd words (up to 2^52) that only its second source brings
  // in (the fill, select's other side, the scattered values, an earlier product's sums): a bound
  // taken from the first source alone would send it through one DGEMM, whose double sums round.
  gpu::register_cuda_backend();
  const std::uint64_t seed = mmv::test::fresh_seed();
  inputs::stream r(seed);
  for (int round = 0; round < 8; ++round) {
    const int s = round % 2 ? 4 : 16;
    const std::int64_t n = s * r.integer(4, 40);
    std::vector<word> small(static_cast<std::size_t>(n)), big(small.size()), mid(small.size()), flags(small.size()), idx;
    for (std::size_t i = 0; i < small.size(); ++i) {
      small[i] = r.integer(-3, 3), flags[i] = r.unit() < 0.5;
      big[i] = r.integer(std::int64_t{1} << 50, (std::int64_t{1} << 51) - 1) * 2 + 1;  // odd, below 2^52
      mid[i] = r.integer(std::int64_t{1} << 45, (std::int64_t{1} << 46) - 1) * 2 + 1;  // odd, below 2^47
      if (i == 0 || r.unit() < 0.5) idx.push_back(static_cast<word>(i));
    }
    std::vector<word> ones(static_cast<std::size_t>(s * s), 1);
    const word fill = (word{1} << 52) - 1;
    INFO("seed " << seed << " round " << round << " n=" << n << " s=" << s);
    std::vector<std::vector<word>> got;
    for (const std::string backend : {"simulate", "cuda"}) {
      machine m(backend_config(backend, number_format::integer, s, 64));
      const auto a = m.load(small), b = m.load(big), c = m.load(mid), f = m.load(flags), w = m.load(ones);
      const auto i = m.load(idx);
      std::vector<word> all;
      for (const auto& v : {m.mmu(m.resize(a, n + s, fill), w), m.mmu(m.shift(a, s + 1, fill), w),
                            m.mmu(m.select(f, a, b), w), m.mmu(m.select(f, a, fill), w),
                            m.mmu(m.scatter(a, i, m.gather(b, i)), w),
                            m.mmu(m.mmu(m.select(f, a, c), w), w)}) {  // s = 16: the second sums reach 2^55
        const auto part = m.read(v);
        all.insert(all.end(), part.begin(), part.end());
      }
      got.push_back(all);
    }
    CHECK(got[0] == got[1]);
  }
}

namespace {
// REVSPEC of a and f on `backend`: the words read back, or "width error".
std::string revspec_words(const std::string& backend, int s, int bits, const std::vector<word>& a, const std::vector<word>& f) {
  machine m(backend_config(backend, number_format::integer, s, bits));
  try {
    std::string out;
    for (const word w : m.read(m.revspec(m.load(a), m.load(f)))) out += std::to_string(w) + " ";
    return out;
  } catch (const width_error&) {
    return "width error";
  }
}
}  // namespace

TEST_CASE("revspec gives the same words, width errors and rounded reals on both backends", "[backends]") {
  gpu::register_cuda_backend();
  const std::uint64_t seed = mmv::test::fresh_seed();
  inputs::stream r(seed);
  for (int round = 0; round < 40; ++round) {
    // Tiles of whole blocks (s = 3: 2046 items), one block a tile (2048), longer blocks (3000).
    const int s = std::vector<int>{2, 3, 16, 128, 2048, 3000}[static_cast<std::size_t>(r.integer(0, 5))];
    const std::int64_t n = r.integer(512, 7000);
    const int bits = round % 4 < 2 ? 8 : 64;
    // Full-range words overflow somewhere; words of a quarter of the range never do.
    const std::int64_t top = (round % 2 ? std::int64_t{1} << (bits - 3) : std::int64_t{INT64_MAX} >> (64 - bits));
    std::vector<word> a(static_cast<std::size_t>(n)), f(a.size());
    std::vector<real> x(a.size());
    for (std::size_t i = 0; i < a.size(); ++i)
      a[i] = r.integer(-top - 1, top), f[i] = r.unit() < 0.3, x[i] = (r.unit() - 0.5) * 1e6;
    INFO("seed " << seed << " round " << round << " n=" << n << " s=" << s << " B=" << bits);
    const std::string sim = revspec_words("simulate", s, bits, a, f);
    CHECK(sim == revspec_words("cuda", s, bits, a, f));
    CHECK((sim == "width error") == (round % 2 == 0));
    std::vector<std::vector<real>> reals;
    for (const std::string backend : {"simulate", "cuda"}) {
      machine m(backend_config(backend, number_format::float32, s, 32));
      reals.push_back(m.read(m.revspec(m.load(x), m.load(f))));
    }
    CHECK(reals[0] == reals[1]);
  }
}

TEST_CASE("the block prefix sums give the same words, width errors and reals on both backends", "[backends]") {
  gpu::register_cuda_backend();
  const std::uint64_t seed = mmv::test::fresh_seed();
  inputs::stream r(seed);
  for (int round = 0; round < 40; ++round) {
    const std::int64_t k = std::vector<std::int64_t>{2, 5, 24, 683, 2048, 2049}[static_cast<std::size_t>(r.integer(0, 5))];
    const std::int64_t n = r.integer(1, 7000);
    const bool segmented = round % 2 == 1;
    const double density = std::vector<double>{0.0, 0.01, 0.5}[static_cast<std::size_t>(r.integer(0, 2))];
    // Words of 8 bits overflow in long blocks (a width error on both), of 16 bits almost never (the
    // words are compared); reals in [-0.5, 0.5) * 1e6 are rounded to float32.
    const int bits = round % 4 < 2 ? 8 : 16;
    std::vector<word> a(static_cast<std::size_t>(n)), f(a.size());
    std::vector<real> x(a.size());
    for (std::size_t i = 0; i < a.size(); ++i)
      a[i] = r.integer(-20, 20), f[i] = r.unit() < density, x[i] = (r.unit() - 0.5) * 1e6;
    INFO("seed " << seed << " round " << round << " n=" << n << " k=" << k << " B=" << bits << " segmented " << segmented);
    std::vector<std::string> words;
    std::vector<std::vector<real>> reals;
    for (const std::string backend : {"simulate", "cuda"}) {
      machine_config cw = backend_config(backend, number_format::integer, 16, bits);
      machine_config cr = backend_config(backend, number_format::float32, 16, 32);
      cw.iterated_addition_limit = cr.iterated_addition_limit = 4096;
      machine m(cw);
      try {
        const auto in = m.load(a);
        const auto out = segmented ? m.block_segmented_prefix_sum(in, m.load(f), k) : m.block_prefix_sum(in, k);
        std::string text;
        for (const word w : m.read(out)) text += std::to_string(w) + " ";
        words.push_back(text);
      } catch (const width_error&) {
        words.push_back("width error");
      }
      machine mr(cr);
      const auto xr = mr.load(x);
      reals.push_back(mr.read(segmented ? mr.block_segmented_prefix_sum(xr, mr.load(f), k) : mr.block_prefix_sum(xr, k)));
    }
    CHECK(words[0] == words[1]);
    CHECK(reals[0] == reals[1]);
  }
}

TEST_CASE("a float overflow is the same first non-finite result on both backends", "[backends]") {
  gpu::register_cuda_backend();
  std::vector<nonfinite_result> found;
  for (const std::string backend : {"simulate", "cuda"}) {
    machine m(backend_config(backend, number_format::float64, 4, 64));
    const auto x = m.load<real>(std::vector<real>{1, 1e300, -1e300, 2, 1e300});
    const auto fine = m.mul(x, 0.5);             // finite: nothing recorded
    const auto big = m.mul(fine, fine);          // inf at 1, 2 and 4: the lowest is 1
    (void)m.read(m.sub(big, big));               // nan later: the first instruction wins
    const auto bad = m.first_nonfinite();
    REQUIRE(bad.has_value());
    found.push_back(*bad);
    machine clean(backend_config(backend, number_format::float64, 4, 64));
    (void)clean.read(clean.exp(clean.load<real>(std::vector<real>{0, 1, -700})));
    CHECK_FALSE(clean.first_nonfinite().has_value());
  }
  CHECK(found[0].instruction == "mul");
  CHECK(found[0].index == 1);
  CHECK(std::isinf(found[0].value));
  CHECK(found[1].sequence == found[0].sequence);
  CHECK(found[1].instruction == found[0].instruction);
  CHECK(found[1].index == found[0].index);
  CHECK(found[1].value == found[0].value);
}

TEST_CASE("calibration reproduces its own training points within its stated residual", "[backends]") {
  gpu::register_cuda_backend();
  tool::calibrate_options o;
  o.max_m = std::int64_t{1} << 20, o.repeat = 5, o.quiet = true, o.mmu_s = {4, 16};
  o.out = (std::filesystem::temp_directory_path() / "mmvram_test_calibration.json").string();
  REQUIRE(tool::command_calibrate(o) == 0);
  const device_profile p = read_profile(o.out);
  std::filesystem::remove(o.out);
  REQUIRE(!p.points.empty());
  for (const auto& t : p.points) {
    INFO(t.cls << " " << t.op << " m=" << t.m << " s=" << t.s);
    const auto& m = p.classes.at(t.cls);
    const double predicted = m.predict_ns(t.bytes, t.work, static_cast<double>(p.l2_bytes));
    CHECK(std::fabs(predicted - t.predicted_ns) <= 1e-6 * t.predicted_ns);
    CHECK(std::fabs(predicted - t.measured_ns) / t.measured_ns <= m.residual_max + 1e-9);
  }
}

TEST_CASE("calibration's MMU points and shape sweep keep whole rows, two rows at least, within the work cap", "[backends]") {
  gpu::register_cuda_backend();
  tool::calibrate_options o;
  o.max_m = std::int64_t{1} << 20, o.repeat = 3, o.quiet = true, o.mmu_s = {4, 16, 200};
  o.max_work = 0x1p26;  // the work cap, lowered: the sweep on 2^20 words stops at s = 64; s = 200 keeps its points up to m = 2^18
  o.out = (std::filesystem::temp_directory_path() / "mmvram_test_calibration_shapes.json").string();
  REQUIRE(tool::command_calibrate(o) == 0);
  const device_profile p = read_profile(o.out);
  std::filesystem::remove(o.out);
  bool s200 = false;
  for (const auto& t : p.points) {
    if (!t.cls.starts_with("mmu-") || t.cls.ends_with(one_row_suffix)) continue;
    INFO(t.cls << " m=" << t.m << " s=" << t.s);
    CHECK(t.m >= 2 * t.s);  // one row (m = 256 at s = 200) is not a multi-row point
    CHECK(static_cast<double>(t.m) * t.s <= o.max_work);
    s200 = s200 || t.s == 200;
  }
  CHECK(s200);
  // Every s from 2 whose 2^20 words (whole rows) fit the work cap, once per format; an interleaved
  // point keeps its median issue's words: whole rows, m - 7s to m - s (the k = 0 issue is the warm-up).
  const std::int64_t words = o.max_m;
  std::vector<int> expected;
  for (int s = 2; s <= 200; ++s)
    if (static_cast<double>(words - words % s) * s <= o.max_work) expected.push_back(s);
  REQUIRE(expected.back() == 64);
  for (const std::string format : {"mmu-word", "mmu-real"}) {
    std::vector<int> swept;
    for (const auto& q : p.mmu_shapes) {
      if (q.format != format) continue;
      INFO(format << " s=" << q.s << " m=" << q.m);
      const std::int64_t whole = words - words % q.s;
      CHECK(q.m % q.s == 0);
      CHECK(q.m < whole);  // issued resized, not at one fixed shape
      CHECK(q.m >= whole - 7 * q.s);
      swept.push_back(q.s);
    }
    CHECK(swept == expected);
  }
}
