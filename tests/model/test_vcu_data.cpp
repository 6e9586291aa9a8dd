// VCU data movement: shift, broadcast, iota, lane_index, gather, gather_strided, scatter,
// compress, resize and REVSPEC, each against a plain loop on fresh random inputs (words and
// reals), and each ledger record against cost.hpp.
#include <algorithm>
#include <numeric>

#include "model_test_util.hpp"

using mmv::real;
using mmv::unit;
using mmv::word;

TEMPLATE_TEST_CASE("shift of the vector by a constant offset", "[vcu]", mt::int_mode, mt::f64_mode, mt::f32_mode) {
  using M = TestType;
  using T = typename M::T;
  const auto seed = mt::fresh_seed();
  mt::rng r(seed);
  CAPTURE(M::name, seed);
  for (auto n : mt::lengths_for(4, r)) {
    const auto x = M::draw(r, n);
    const T fill = M::draw(r, 1)[0];
    for (std::int64_t off : std::vector<std::int64_t>{-n - 3, -n, -n + 1, -2, -1, 0, 1, 2, n - 1, n, n + 5}) {
      CAPTURE(n, off);
      std::vector<T> ref(x.size(), fill);
      for (std::int64_t i = 0; i < n; ++i)
        if (i - off >= 0 && i - off < n) ref[static_cast<std::size_t>(i)] = x[static_cast<std::size_t>(i - off)];
      auto m = mt::make_machine(4, 32, M::format);
      CHECK(m.read(m.shift(m.load(x), off, fill)) == ref);
      mt::check_single(m, "shift", unit::vcu, n, mt::vcu_cost(n, n), 1);
    }
  }
}

TEMPLATE_TEST_CASE("broadcast of a scalar-unit constant", "[vcu]", mt::int_mode, mt::f64_mode, mt::f32_mode) {
  using M = TestType;
  using T = typename M::T;
  const auto seed = mt::fresh_seed();
  mt::rng r(seed);
  CAPTURE(M::name, seed);
  for (auto n : mt::lengths_for(4, r)) {
    const T v = M::draw(r, 1)[0];
    CAPTURE(n, v);
    auto m = mt::make_machine(4, 32, M::format);
    CHECK(m.read(m.broadcast(v, n)) == std::vector<T>(static_cast<std::size_t>(n), v));
    mt::check_single(m, "broadcast", unit::vcu, n, mt::vcu_cost(n, 0), 0);
  }
}

TEST_CASE("iota and lane_index", "[vcu]") {
  const auto seed = mt::fresh_seed();
  mt::rng r(seed);
  CAPTURE(seed);
  for (auto n : mt::lengths_for(4, r)) {
    const word start = r.uniform(-1000, 1000), step = r.uniform(-50, 50);
    for (std::int64_t block : {std::int64_t{1}, std::int64_t{2}, std::int64_t{3}, r.uniform(1, 300)}) {
      CAPTURE(n, start, step, block);
      std::vector<word> ref(static_cast<std::size_t>(n)), lanes(static_cast<std::size_t>(n));
      word value = start;
      for (std::int64_t i = 0; i < n; ++i) {
        if (i > 0 && i % block == 0) value += step;  // a new block steps once
        ref[static_cast<std::size_t>(i)] = value;
        lanes[static_cast<std::size_t>(i)] = i - (i / block) * block;
      }
      {
        auto m = mt::make_machine(4);
        CHECK(m.read(m.iota(n, start, step, block)) == ref);
        mt::check_single(m, "iota", unit::vcu, n, mt::vcu_cost(n, 0), 0);
      }
      {
        auto m = mt::make_machine(4);
        CHECK(m.read(m.lane_index(n, block)) == lanes);
        mt::check_single(m, "lane-index", unit::vcu, n, mt::vcu_cost(n, 0), 0);
      }
    }
  }
  auto m = mt::make_machine(4);
  std::vector<word> plain(9);
  std::iota(plain.begin(), plain.end(), word{0});
  CHECK(m.read(m.iota(9)) == plain);  // the defaults: 0, 1, 2, ...
}

TEMPLATE_TEST_CASE("gather and gather_strided", "[vcu]", mt::int_mode, mt::f64_mode, mt::f32_mode) {
  using M = TestType;
  using T = typename M::T;
  const auto seed = mt::fresh_seed();
  mt::rng r(seed);
  CAPTURE(M::name, seed);
  for (auto n : mt::lengths_for(4, r)) {
    const auto x = M::draw(r, n);
    for (std::int64_t k : {std::int64_t{0}, std::int64_t{1}, n, 2 * n + 3}) {
      if (n == 0 && k > 0) continue;  // nothing to gather from
      CAPTURE(n, k);
      const auto idx = r.words(k, 0, n - 1);
      std::vector<T> ref(idx.size());
      for (std::size_t i = 0; i < idx.size(); ++i) ref[i] = x[static_cast<std::size_t>(idx[i])];
      auto m = mt::make_machine(4, 32, M::format);
      CHECK(m.read(m.gather(m.load(x), m.load(idx))) == ref);
      mt::check_single(m, "gather", unit::vcu, k, mt::vcu_cost(k, 2 * k), 2);
    }
    if (n == 0) continue;
    for (int trial = 0; trial < 6; ++trial) {
      const std::int64_t start = r.uniform(0, n - 1);
      std::int64_t stride = r.uniform(-3, 3), count;
      if (trial == 0) stride = 0;
      if (stride > 0)
        count = r.uniform(0, (n - 1 - start) / stride + 1);
      else if (stride < 0)
        count = r.uniform(0, start / -stride + 1);
      else
        count = r.uniform(0, 5);
      CAPTURE(n, start, stride, count);
      std::vector<T> ref;
      for (std::int64_t i = 0; i < count; ++i) ref.push_back(x[static_cast<std::size_t>(start + i * stride)]);
      auto m = mt::make_machine(4, 32, M::format);
      CHECK(m.read(m.gather_strided(m.load(x), start, stride, count)) == ref);
      mt::check_single(m, "gather-strided", unit::vcu, count, mt::vcu_cost(count, count), 1);
    }
  }
}

TEMPLATE_TEST_CASE("scatter to distinct addresses", "[vcu]", mt::int_mode, mt::f64_mode, mt::f32_mode) {
  using M = TestType;
  const auto seed = mt::fresh_seed();
  mt::rng r(seed);
  CAPTURE(M::name, seed);
  for (auto n : mt::lengths_for(4, r)) {
    const auto dst = M::draw(r, n);
    std::vector<word> perm(static_cast<std::size_t>(n));
    std::iota(perm.begin(), perm.end(), word{0});
    std::shuffle(perm.begin(), perm.end(), r.g);
    for (std::int64_t k : {std::int64_t{0}, n / 2, n}) {
      CAPTURE(n, k);
      const std::vector<word> idx(perm.begin(), perm.begin() + k);
      const auto v = M::draw(r, k);
      auto ref = dst;
      for (std::size_t i = 0; i < idx.size(); ++i) ref[static_cast<std::size_t>(idx[i])] = v[i];
      auto m = mt::make_machine(4, 32, M::format);
      CHECK(m.read(m.scatter(m.load(dst), m.load(idx), m.load(v))) == ref);
      mt::check_single(m, "scatter", unit::vcu, n, mt::vcu_cost(n, n + 2 * k), 3);
    }
  }
}

TEMPLATE_TEST_CASE("compress with the ranks of the set mask positions", "[vcu]", mt::int_mode, mt::f64_mode,
                   mt::f32_mode) {
  using M = TestType;
  using T = typename M::T;
  const auto seed = mt::fresh_seed();
  mt::rng r(seed);
  CAPTURE(M::name, seed);
  for (auto n : mt::lengths_for(4, r)) {
    for (double p : {0.0, 0.3, 1.0}) {
      CAPTURE(n, p);
      const auto x = M::draw(r, n);
      const auto mask = r.flags(n, p);
      // pos: the exclusive scan of the mask where it is set; anything at all where it is not.
      std::vector<word> pos(mask.size());
      std::vector<T> ref;
      for (std::size_t i = 0; i < mask.size(); ++i) {
        pos[i] = mask[i] == 1 ? static_cast<word>(ref.size()) : r.uniform(-5, 1000);
        if (mask[i] == 1) ref.push_back(x[i]);
      }
      const auto count = static_cast<std::int64_t>(ref.size());
      auto m = mt::make_machine(4, 32, M::format);
      CHECK(m.read(m.compress(m.load(x), m.load(mask), m.load(pos))) == ref);
      mt::check_single(m, "compress", unit::vcu, count, mt::vcu_cost(count, 3 * n), 3);
    }
  }
}

TEMPLATE_TEST_CASE("resize truncates or pads", "[vcu]", mt::int_mode, mt::f64_mode, mt::f32_mode) {
  using M = TestType;
  using T = typename M::T;
  const auto seed = mt::fresh_seed();
  mt::rng r(seed);
  CAPTURE(M::name, seed);
  for (auto n : mt::lengths_for(4, r)) {
    const auto x = M::draw(r, n);
    const T fill = M::draw(r, 1)[0];
    for (std::int64_t len : {std::int64_t{0}, std::int64_t{1}, n / 2, n, n + 1, 2 * n + 7}) {
      CAPTURE(n, len);
      std::vector<T> ref(static_cast<std::size_t>(len), fill);
      const std::int64_t kept = std::min(n, len);
      std::copy(x.begin(), x.begin() + kept, ref.begin());
      auto m = mt::make_machine(4, 32, M::format);
      CHECK(m.read(m.resize(m.load(x), len, fill)) == ref);
      mt::check_single(m, "resize", unit::vcu, len, mt::vcu_cost(len, kept), 1);
    }
  }
}

namespace {
// REVSPEC per the header, literally: out[i] = a[i] - a[j-1], j the last flag at or before i in
// i's s-block, a[j-1] read as 0 when j starts the block; out[i] = a[i] with no such flag.
template <class T>
std::vector<T> revspec_by_definition(const std::vector<T>& a, const std::vector<word>& f, std::int64_t s) {
  const auto n = static_cast<std::int64_t>(a.size());
  std::vector<T> out(a.size());
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t block = i - i % s;
    std::int64_t j = -1;
    for (std::int64_t t = block; t <= i; ++t)
      if (f[static_cast<std::size_t>(t)] == 1) j = t;
    const T before = (j > block) ? a[static_cast<std::size_t>(j - 1)] : T(0);
    out[static_cast<std::size_t>(i)] = a[static_cast<std::size_t>(i)] - before;
  }
  return out;
}
}  // namespace

TEMPLATE_TEST_CASE("revspec turns unsegmented in-block prefix sums into segmented ones", "[vcu]", mt::int_mode,
                   mt::f64_mode) {
  using M = TestType;
  using T = typename M::T;
  const auto seed = mt::fresh_seed();
  mt::rng r(seed);
  const int s = GENERATE(2, 3, 4, 8, 16);
  CAPTURE(M::name, seed, s);
  for (auto n : mt::lengths_for(s, r)) {
    for (double p : {0.0, 0.25, 1.0}) {
      CAPTURE(n, p);
      // Small integer-valued inputs: every partial sum is exact in both modes.
      std::vector<T> x(static_cast<std::size_t>(n));
      for (auto& v : x) v = static_cast<T>(r.uniform(-100, 100));
      const auto f = r.flags(n, p);
      std::vector<T> spec(x.size()), seg(x.size());
      for (std::int64_t i = 0; i < n; ++i) {
        const auto u = static_cast<std::size_t>(i);
        const bool block_start = i % s == 0;
        spec[u] = x[u] + (block_start ? T(0) : spec[u - 1]);
        seg[u] = x[u] + (block_start || f[u] == 1 ? T(0) : seg[u - 1]);
      }
      auto m = mt::make_machine(s, 32, M::format);
      const auto out = m.read(m.revspec(m.load(spec), m.load(f)));
      CHECK(out == seg);
      CHECK(out == revspec_by_definition(spec, f, s));
      mt::check_single(m, "revspec", unit::vcu, n, mt::revspec_cost(n, s), 2);
    }
  }
}

TEMPLATE_TEST_CASE("revspec on arbitrary (not prefix-sum) inputs follows its definition", "[vcu]", mt::int_mode,
                   mt::f64_mode, mt::f32_mode) {
  using M = TestType;
  const auto seed = mt::fresh_seed();
  mt::rng r(seed);
  const int s = GENERATE(2, 5, 16);
  CAPTURE(M::name, seed, s);
  for (auto n : mt::lengths_for(s, r)) {
    CAPTURE(n);
    const auto a = M::draw(r, n);
    const auto f = r.flags(n, 0.3);
    auto ref = revspec_by_definition(a, f, s);
    for (auto& v : ref) v = M::rnd(v);
    auto m = mt::make_machine(s, 32, M::format);
    CHECK(m.read(m.revspec(m.load(a), m.load(f))) == ref);
    mt::check_single(m, "revspec", unit::vcu, n, mt::revspec_cost(n, s), 2);
  }
}
