// The MMU instruction: (rows x s) times (s x s), row-major, against a plain triple loop for
// several s, on integers (both the 64-bit and the 128-bit exact paths) and reals (accumulated
// exactly, rounded once), with dense, sparse, constant and data-dependent weights; and its
// ledger record against cost.hpp (tile products ceil(rows/s), rows*s^2 multiply-adds, ...).
#include "model_test_util.hpp"

using mmv::real;
using mmv::unit;
using mmv::word;

namespace {
// out[r*s + j] = sum_k a[r*s + k] * w[k*s + j], exactly (128-bit).
std::vector<mt::wide> matmul_exact(const std::vector<word>& a, const std::vector<word>& w, std::int64_t s) {
  std::vector<mt::wide> out(a.size(), 0);
  for (std::size_t r = 0; r < a.size() / static_cast<std::size_t>(s); ++r)
    for (std::int64_t j = 0; j < s; ++j)
      for (std::int64_t k = 0; k < s; ++k) out[r * s + j] += mt::wide(a[r * s + k]) * w[k * s + j];
  return out;
}

std::vector<word> narrow(const std::vector<mt::wide>& v) { return std::vector<word>(v.begin(), v.end()); }

// Reals that are multiples of 2^-8 below 2^7: their products and sums of up to 16 of them are
// exact in double, so the reference is the exact value rounded once, independent of order.
std::vector<real> quantized(mt::rng& r, std::int64_t n) {
  std::vector<real> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = static_cast<real>(r.uniform(-32768, 32767)) / 256.0;
  return v;
}
}  // namespace

TEST_CASE("mmu on integers, several s, rows, weights", "[mmu]") {
  const auto seed = mt::fresh_seed();
  mt::rng r(seed);
  const int s = GENERATE(2, 3, 4, 8, 16);
  CAPTURE(seed, s);
  for (std::int64_t rows : {std::int64_t{0}, std::int64_t{1}, std::int64_t{s - 1}, std::int64_t{s}, std::int64_t{s + 1},
                            r.uniform(2, 40)}) {
    const std::int64_t n = rows * s;
    // Dense, sparse (mostly zeros: the machine skips zero weights) and the prefix matrix.
    std::vector<word> dense = r.words(s * s, -1000, 1000), sparse(static_cast<std::size_t>(s * s)),
                      prefix(static_cast<std::size_t>(s * s));
    for (std::int64_t k = 0; k < s; ++k)
      for (std::int64_t j = 0; j < s; ++j) {
        sparse[k * s + j] = r.uniform(0, 4) == 0 ? r.uniform(-9, 9) : 0;
        prefix[k * s + j] = k <= j ? 1 : 0;
      }
    for (const auto& w : {dense, sparse, prefix}) {
      for (int bits : {32, 64}) {
        CAPTURE(rows, bits);
        // bits = 64 with large inputs takes the 128-bit path (|a| |w| s >= 2^62); results fit.
        const word amp = bits == 32 ? 1000 : (word{1} << 42);  // |sum| <= 16 * 2^42 * 128000 < 2^63
        const auto a = r.words(n, -amp, amp);
        auto wb = w;
        if (bits == 64)
          for (auto& v : wb) v *= 1 << 7;
        auto m = mt::make_machine(s, bits);
        const auto out = m.read(m.mmu(m.load(a), m.load(wb)));
        CHECK(out == narrow(matmul_exact(a, wb, s)));
        mt::check_single(m, "mmu", unit::mmu, n, mt::mmu_cost(rows, s), 2);
      }
    }
  }
}

TEMPLATE_TEST_CASE("mmu on reals: exact products, one rounding per element", "[mmu]", mt::f64_mode, mt::f32_mode) {
  using M = TestType;
  const auto seed = mt::fresh_seed();
  mt::rng r(seed);
  const int s = GENERATE(2, 3, 4, 8, 16);
  CAPTURE(M::name, seed, s);
  for (std::int64_t rows : {std::int64_t{0}, std::int64_t{1}, std::int64_t{s + 1}, r.uniform(2, 40)}) {
    CAPTURE(rows);
    const auto a = quantized(r, rows * s), w = quantized(r, s * s);
    std::vector<real> ref(a.size(), 0.0);
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t j = 0; j < s; ++j) {
        double acc = 0;
        for (std::int64_t k = 0; k < s; ++k) acc += a[i * s + k] * w[k * s + j];
        ref[i * s + j] = M::rnd(acc);
      }
    auto m = mt::make_machine(s, 32, M::format);
    CHECK(m.read(m.mmu(m.load(a), m.load(w))) == ref);
    mt::check_single(m, "mmu", unit::mmu, rows * s, mt::mmu_cost(rows, s), 2);
  }
}

TEST_CASE("mmu with a data-dependent weight computed on the VCU", "[mmu]") {
  const auto seed = mt::fresh_seed();
  mt::rng r(seed);
  const int s = GENERATE(2, 5, 8);
  CAPTURE(seed, s);
  const std::int64_t rows = r.uniform(1, 30);
  const auto a = r.words(rows * s, -500, 500), u = r.words(s * s, -50, 50), v = r.words(s * s, -50, 50);
  std::vector<word> w(u.size());
  for (std::size_t i = 0; i < u.size(); ++i) w[i] = u[i] - v[i];
  auto m = mt::make_machine(s, 32);
  const auto weight = m.sub(m.load(u), m.load(v));
  const auto out = m.mmu(m.load(a), weight);
  CHECK(m.read(out) == narrow(matmul_exact(a, w, s)));
  const auto& t = m.costs().totals();
  CHECK(t.mmu == mt::mmu_cost(rows, s));
  CHECK(t.vcu == mt::vcu_cost(s * s, 2 * s * s));
  CHECK(m.costs().records().back().depth == 2);  // after the VCU step that made its weight
  CHECK(m.costs().depth() == 2);
  // The same weight twice in a row: the products compose.
  const auto twice = m.read(m.mmu(out, weight));
  CHECK(twice == narrow(matmul_exact(narrow(matmul_exact(a, w, s)), w, s)));
  CHECK(m.costs().depth() == 3);
  CHECK(m.costs().totals().mmu == mt::mmu_cost(rows, s) + mt::mmu_cost(rows, s));
}

TEST_CASE("mmu cost: tile products are ceil(rows / s)", "[mmu][cost]") {
  for (int s : {2, 3, 4, 16, 128}) {
    for (std::int64_t rows : {0, 1, 2, 3, 4, 5, 15, 16, 17, 128, 129, 300}) {
      CAPTURE(s, rows);
      auto m = mt::make_machine(s);
      (void)m.mmu(m.broadcast(word{1}, rows * s), m.broadcast(word{0}, std::int64_t{s} * s));
      const auto& rec = m.costs().records().back();
      std::int64_t tiles = 0;
      for (std::int64_t done = 0; done < rows; done += s) ++tiles;
      CHECK(rec.price.tile_products == tiles);
      CHECK(rec.price.multiply_adds == rows * s * s);
      CHECK(rec.price.work == rows * s * s);
      CHECK(rec.price.words_read == rows * s + s * s);
      CHECK(rec.price.words_written == rows * s);
      CHECK(rec.price.steps == 1);
      CHECK(rec.length == rows * s);
      CHECK(rec.where == unit::mmu);
    }
  }
}
