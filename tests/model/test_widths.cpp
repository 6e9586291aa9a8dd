// Word-width checks: an integer result outside B-bit two's complement raises mmv::width_error
// naming the instruction, the first offending index and the exact value (never a silent wrap,
// also at B = 64); results exactly at the limits pass. Nothing is retired by a failed step.
#include <functional>
#include <source_location>

#include "model_test_util.hpp"

using mmv::word;
using mt::wide;

namespace {

// Runs f on m and checks it raises width_error(instr, index, value) and retires nothing but
// the loads of its operands.
void expect_width_error(mmv::machine& m, const std::function<void()>& f, const std::string& instr, std::int64_t index,
                        wide value, std::source_location where = std::source_location::current()) {
  INFO("expected width_error from line " << where.line());
  const auto before = m.costs().records().size();
  bool thrown = false;
  try {
    f();
  } catch (const mmv::width_error& e) {
    thrown = true;
    CHECK(e.instruction == instr);
    CHECK(e.index == index);
    CHECK(e.value == mt::to_dec(value));
    CHECK(e.word_bits == m.word_bits());
    CHECK(std::string(e.what()).find(mt::to_dec(value)) != std::string::npos);
  }
  CHECK(thrown);
  // Only the operands' loads (if any) were retired, never the failing instruction.
  const auto& recs = m.costs().records();
  for (auto i = before; i < recs.size(); ++i) {
    CHECK(recs[i].where == mmv::unit::scalar);
    CHECK(recs[i].op != instr);
  }
}

}  // namespace

TEST_CASE("word_min and word_max", "[width]") {
  for (int bits : {2, 3, 8, 16, 31, 32, 63, 64}) {
    CAPTURE(bits);
    auto m = mt::make_machine(2, bits);
    CHECK(wide(m.word_min()) == mt::lim_min(bits));
    CHECK(wide(m.word_max()) == mt::lim_max(bits));
  }
}

TEST_CASE("add, sub, neg past the B-bit limits", "[width]") {
  const auto seed = mt::fresh_seed();
  mt::rng r(seed);
  const int bits = GENERATE(2, 8, 16, 32, 64);
  CAPTURE(seed, bits);
  const wide lo = mt::lim_min(bits), hi = mt::lim_max(bits);
  const word wlo = static_cast<word>(lo), whi = static_cast<word>(hi);
  const std::int64_t n = r.uniform(1, 40), k = r.uniform(0, n - 1);
  CAPTURE(n, k);
  // Small values around the offending position: their sums stay far inside the range.
  auto x = r.words(n, static_cast<word>(lo / 4), static_cast<word>(hi / 4));
  auto y = r.words(n, static_cast<word>(lo / 4), static_cast<word>(hi / 4));
  auto m = mt::make_machine(4, bits);

  auto xa = x, ya = y;
  xa[k] = whi, ya[k] = 1;
  expect_width_error(
      m, [&] { (void)m.add(m.load(xa), m.load(ya)); }, "add", k, hi + 1);
  xa[k] = wlo, ya[k] = -1;
  expect_width_error(
      m, [&] { (void)m.add(m.load(xa), m.load(ya)); }, "add", k, lo - 1);
  xa[k] = whi;
  expect_width_error(
      m, [&] { (void)m.add(m.load(xa), word{1}); }, "add-const", k, hi + 1);
  xa[k] = whi - 1, ya[k] = 1;
  CHECK(m.read(m.add(m.load(xa), m.load(ya)))[k] == whi);  // exactly the limit
  xa[k] = wlo + 1, ya[k] = -1;
  CHECK(m.read(m.add(m.load(xa), m.load(ya)))[k] == wlo);

  auto xs = x, ys = y;
  xs[k] = wlo, ys[k] = 1;
  expect_width_error(
      m, [&] { (void)m.sub(m.load(xs), m.load(ys)); }, "sub", k, lo - 1);
  xs[k] = whi, ys[k] = -1;
  expect_width_error(
      m, [&] { (void)m.sub(m.load(xs), m.load(ys)); }, "sub", k, hi + 1);
  xs[k] = wlo;
  expect_width_error(
      m, [&] { (void)m.sub(m.load(xs), word{1}); }, "sub-const", k, lo - 1);
  xs[k] = wlo, ys[k] = wlo;
  CHECK(m.read(m.sub(m.load(xs), m.load(ys)))[k] == 0);
  xs[k] = -1, ys[k] = whi;
  CHECK(m.read(m.sub(m.load(xs), m.load(ys)))[k] == wlo);

  auto xn = x;
  xn[k] = wlo;
  expect_width_error(
      m, [&] { (void)m.neg(m.load(xn)); }, "neg", k, -lo);
  xn[k] = whi;
  CHECK(m.read(m.neg(m.load(xn)))[k] == -whi);
}

TEST_CASE("shift_left_bits past the limits", "[width]") {
  const int bits = GENERATE(2, 8, 16, 32, 64);
  CAPTURE(bits);
  const wide lo = mt::lim_min(bits), hi = mt::lim_max(bits);
  auto m = mt::make_machine(4, bits);
  const word top = static_cast<word>(wide{1} << (bits - 2));  // 2^(B-2)
  expect_width_error(
      m,
      [&] {
        (void)m.shift_left_bits(m.load(std::vector<word>{0, top, 0}), 1);
      },
      "shl", 1, hi + 1);
  expect_width_error(
      m, [&] { (void)m.shift_left_bits(m.load(std::vector<word>{static_cast<word>(lo)}), 1); }, "shl", 0, 2 * lo);
  expect_width_error(
      m,
      [&] {
        (void)m.shift_left_bits(m.load(std::vector<word>{-1, 1}), bits - 1);
      },
      "shl", 1, hi + 1);
  CHECK(m.read(m.shift_left_bits(m.load(std::vector<word>{-1}), bits - 1)) == std::vector<word>{static_cast<word>(lo)});
  CHECK(m.read(m.shift_left_bits(m.load(std::vector<word>{-top}), 1)) == std::vector<word>{static_cast<word>(lo)});
  CHECK(m.read(m.shift_left_bits(m.load(std::vector<word>{top - 1}), 1)) ==
        std::vector<word>{static_cast<word>(hi - 1)});
}

TEST_CASE("iota, lane_index, broadcast, shift, resize, select past the limits", "[width]") {
  const auto seed = mt::fresh_seed();
  mt::rng r(seed);
  const int bits = GENERATE(8, 16, 32, 64);
  CAPTURE(seed, bits);
  const wide lo = mt::lim_min(bits), hi = mt::lim_max(bits);
  auto m = mt::make_machine(4, bits);
  const word step = r.uniform(1, 9);
  CAPTURE(step);
  // Values hi - 3 step, ..., hi: fine; one more is over.
  CHECK(m.read(m.iota(4, static_cast<word>(hi - 3 * step), step)).back() == static_cast<word>(hi));
  expect_width_error(
      m, [&] { (void)m.iota(9, static_cast<word>(hi - 3 * step), step); }, "iota", 4, hi + step);
  CHECK(m.read(m.iota(4, static_cast<word>(lo + 3 * step), -step)).back() == static_cast<word>(lo));
  expect_width_error(
      m, [&] { (void)m.iota(6, static_cast<word>(lo + 3 * step), -step, 1); }, "iota", 4, lo - step);
  // Blocked: the value changes every 3 positions.
  expect_width_error(
      m, [&] { (void)m.iota(20, static_cast<word>(hi - step), step, 3); }, "iota", 6, hi + step);
  if (bits == 8) {
    CHECK(m.read(m.lane_index(128, 128)).back() == 127);
    expect_width_error(
        m, [&] { (void)m.lane_index(200, 150); }, "lane-index", 128, 128);
  }
  if (bits < 64) {
    expect_width_error(
        m, [&] { (void)m.broadcast(static_cast<word>(hi + 1), 3); }, "broadcast", 0, hi + 1);
    expect_width_error(
        m,
        [&] {
          (void)m.shift(m.load(std::vector<word>{1, 2}), 1, static_cast<word>(lo - 1));
        },
        "shift", 0, lo - 1);
    expect_width_error(
        m,
        [&] {
          (void)m.resize(m.load(std::vector<word>{1, 2}), 3, static_cast<word>(hi + 1));
        },
        "resize", 2, hi + 1);
  }
  CHECK(m.read(m.broadcast(static_cast<word>(lo), 2)) ==
        std::vector<word>{static_cast<word>(lo), static_cast<word>(lo)});
}

// A constant stored by select must fit in B bits like every other word the machine holds.
TEST_CASE("select with an out-of-range constant", "[width][constants]") {
  auto m = mt::make_machine(4, 8);
  const auto cond = m.load(std::vector<word>{1, 0, 1});
  const auto a = m.load(std::vector<word>{1, 2, 3});
  expect_width_error(
      m, [&] { (void)m.select(cond, a, word{1000}); }, "select-const", 1, 1000);
}

TEST_CASE("loads of out-of-range values", "[width]") {
  const int bits = GENERATE(2, 8, 16, 32, 63);
  CAPTURE(bits);
  const wide lo = mt::lim_min(bits), hi = mt::lim_max(bits);
  auto m = mt::make_machine(4, bits);
  expect_width_error(
      m,
      [&] {
        (void)m.load(std::vector<word>{0, 0, static_cast<word>(hi + 1)});
      },
      "load", 2, hi + 1);
  expect_width_error(
      m, [&] { (void)m.load(std::vector<word>{static_cast<word>(lo - 1)}, "input x"); }, "input x", 0, lo - 1);
  CHECK(m.read(m.load(std::vector<word>{static_cast<word>(lo), static_cast<word>(hi)})) ==
        std::vector<word>{static_cast<word>(lo), static_cast<word>(hi)});
  // Integer words on a float machine (flags, indices) are still checked against B bits.
  auto f = mt::make_machine(4, bits, mmv::number_format::float32);
  expect_width_error(
      f, [&] { (void)f.load(std::vector<word>{static_cast<word>(hi + 1)}); }, "load", 0, hi + 1);
  auto full = mt::make_machine(4, 64);
  CHECK(full.read(full.load(std::vector<word>{INT64_MIN, INT64_MAX})) == std::vector<word>{INT64_MIN, INT64_MAX});
}

TEST_CASE("mmu past the limits", "[width]") {
  const auto seed = mt::fresh_seed();
  mt::rng r(seed);
  const int bits = GENERATE(8, 16, 32, 64);
  const int s = GENERATE(2, 4);
  CAPTURE(seed, bits, s);
  const wide lo = mt::lim_min(bits), hi = mt::lim_max(bits);
  const word whi = static_cast<word>(hi), wlo = static_cast<word>(lo);
  auto m = mt::make_machine(s, bits);
  const auto ones = m.broadcast(word{1}, std::int64_t{s} * s);  // each output = its row's total
  const std::int64_t rows = r.uniform(1, 6), row = r.uniform(0, rows - 1);
  CAPTURE(rows, row);
  std::vector<word> a(static_cast<std::size_t>(rows * s), 0);
  a[row * s] = whi, a[row * s + 1] = whi;
  expect_width_error(
      m, [&] { (void)m.mmu(m.load(a), ones); }, "mmu", row * s, 2 * hi);
  a[row * s] = wlo, a[row * s + 1] = -1;
  expect_width_error(
      m, [&] { (void)m.mmu(m.load(a), ones); }, "mmu", row * s, lo - 1);
  a[row * s] = whi, a[row * s + 1] = wlo;
  CHECK(m.read(m.mmu(m.load(a), ones))[row * s] == -1);  // limits inside: fine
  a[row * s] = whi, a[row * s + 1] = 0;
  CHECK(m.read(m.mmu(m.load(a), ones))[row * s + s - 1] == whi);
  a[row * s] = wlo;
  CHECK(m.read(m.mmu(m.load(a), ones))[row * s] == wlo);
  // A weight entry at the limit times 2.
  std::vector<word> w(static_cast<std::size_t>(s * s), 0);
  w[1] = whi;  // w[0][1]
  std::vector<word> two(static_cast<std::size_t>(rows * s), 0);
  two[row * s] = 2;
  expect_width_error(
      m, [&] { (void)m.mmu(m.load(two), m.load(w)); }, "mmu", row * s + 1, 2 * hi);
}

// INT64_MIN is a valid 64-bit word; a product involving it must be checked like any other.
TEST_CASE("mmu with INT64_MIN at B = 64", "[width]") {
  auto m = mt::make_machine(2, 64);
  const auto twice = m.load(std::vector<word>{2, 0, 0, 2});  // 2 I
  expect_width_error(
      m,
      [&] {
        (void)m.mmu(m.load(std::vector<word>{INT64_MIN, 0}), twice);
      },
      "mmu", 0, wide{INT64_MIN} * 2);
  const auto minus = m.load(std::vector<word>{-1, 0, 0, 1});
  expect_width_error(
      m,
      [&] {
        (void)m.mmu(m.load(std::vector<word>{INT64_MIN, 5}), minus);
      },
      "mmu", 0, -wide{INT64_MIN});
  const auto weight_min = m.load(std::vector<word>{INT64_MIN, 0, 0, 1});
  expect_width_error(
      m,
      [&] {
        (void)m.mmu(m.load(std::vector<word>{-1, 5}), weight_min);
      },
      "mmu", 0, -wide{INT64_MIN});
}

TEST_CASE("revspec differences past the limits", "[width]") {
  const int bits = GENERATE(8, 32, 64);
  CAPTURE(bits);
  const wide lo = mt::lim_min(bits), hi = mt::lim_max(bits);
  auto m = mt::make_machine(2, bits);
  // Block [0, 1] with a flag at 1: out[1] = a[1] - a[0].
  const auto f = m.load(std::vector<word>{0, 1});
  expect_width_error(
      m,
      [&] {
        (void)m.revspec(m.load(std::vector<word>{-1, static_cast<word>(hi)}), f);
      },
      "revspec", 1, hi + 1);
  expect_width_error(
      m,
      [&] {
        (void)m.revspec(m.load(std::vector<word>{1, static_cast<word>(lo)}), f);
      },
      "revspec", 1, lo - 1);
  CHECK(m.read(m.revspec(m.load(std::vector<word>{1, static_cast<word>(hi)}), f)) ==
        std::vector<word>{1, static_cast<word>(hi - 1)});
}
