// The sharded kernels' carry logic on the CPU: an array cut at random into p shards (empty ones,
// shards without a start, segments across several shards), each shard scanned or summed on its
// own as the single-GPU kernels do (position 0 starts a segment), summarised, repaired with
// shard_carry.hpp exactly as gpu/multi's kernels apply it, and compared with the unsharded result
// of a plain loop. int32 wraps around; floats hold small integers, so every sum is exact.
#include "mmvram/gpu/multi/shard_carry.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "catch.hpp"
#include "mmvram/harness/random_inputs.hpp"
#include "test_seed.hpp"

namespace {

using mmv::gpu::multi::shard_summary;
namespace multi = mmv::gpu::multi;

// Segmented inclusive scan with position 0 a start (the kernels' rule).
template <class T>
std::vector<T> scan(const std::vector<T>& x, const std::vector<std::uint8_t>& f) {
  std::vector<T> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) out[i] = i == 0 || f[i] ? x[i] : multi::carry_add(out[i - 1], x[i]);
  return out;
}

// Segment sums and first indices with position 0 a start.
template <class T>
void sums(const std::vector<T>& x, const std::vector<std::uint8_t>& f, std::vector<T>& s, std::vector<std::int64_t>& off) {
  s.clear(), off.clear();
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (i == 0 || f[i]) s.push_back(T{}), off.push_back(static_cast<std::int64_t>(i));
    s.back() = multi::carry_add(s.back(), x[i]);
  }
}

std::int64_t first_flag(const std::vector<std::uint8_t>& f) {
  return std::find(f.begin(), f.end(), 1) - f.begin();
}

struct split {
  std::vector<std::int64_t> begin;  // p + 1 cut points
};

split random_split(mmv::inputs::stream& d, std::int64_t n, int p) {
  split s;
  for (int r = 0; r < p - 1; ++r) s.begin.push_back(d.integer(0, n));
  if (d.integer(0, 3) == 0 && p > 2) s.begin[0] = s.begin.size() > 1 ? s.begin[1] : 0;  // an empty shard
  s.begin.push_back(0), s.begin.push_back(n);
  std::sort(s.begin.begin(), s.begin.end());
  return s;
}

template <class T>
std::vector<T> slice(const std::vector<T>& v, std::int64_t b, std::int64_t e) {
  return {v.begin() + b, v.begin() + e};
}

template <class T>
void check_case(mmv::inputs::stream& d, std::int64_t n, int p, double density, bool first_flag_zero) {
  std::vector<T> x(static_cast<std::size_t>(n));
  std::vector<std::uint8_t> f(static_cast<std::size_t>(n));
  for (auto& v : x) v = static_cast<T>(d.integer(-50, 50));
  if constexpr (std::is_same_v<T, std::int32_t>)
    for (auto& v : x) v = static_cast<T>(d.integer(INT32_MIN, INT32_MAX));  // sums wrap around
  for (auto& v : f) v = d.unit() < density ? 1 : 0;
  if (n > 0) f[0] = first_flag_zero ? 0 : 1;
  const split cut = random_split(d, n, p);
  CAPTURE(n, p, density, cut.begin);

  // Local phase: each shard on its own, then its summary.
  std::vector<std::vector<T>> out(p), local_sums(p);
  std::vector<std::vector<std::int64_t>> local_off(p);
  std::vector<shard_summary<T>> scan_sum(p), sum_sum(p);
  for (int r = 0; r < p; ++r) {
    const auto b = cut.begin[r], e = cut.begin[r + 1], len = e - b;
    const auto xs = slice(x, b, e);
    const auto fs = slice(f, b, e);
    out[r] = scan(xs, fs);
    sums(xs, fs, local_sums[r], local_off[r]);
    const std::int64_t first = first_flag(fs);
    scan_sum[r] = {first, len, first > 0 ? out[r][first - 1] : T{}, len > 0 ? out[r].back() : T{}};
    const auto& ls = local_sums[r];
    sum_sum[r] = {first, len, first > 0 && !ls.empty() ? ls.front() : T{}, ls.empty() ? T{} : ls.back()};
  }
  // Repair phase, as add_carry and settle_sum apply it.
  std::vector<T> got_scan;
  std::vector<T> got_sums;
  std::vector<std::int64_t> got_off;
  for (int r = 0; r < p; ++r) {
    if (!multi::opens_array(scan_sum.data(), r)) {
      const T c = multi::carry_into(scan_sum.data(), r);
      for (std::int64_t i = 0; i < std::min(scan_sum[r].first_start, scan_sum[r].n); ++i) out[r][i] = multi::carry_add(c, out[r][i]);
    }
    got_scan.insert(got_scan.end(), out[r].begin(), out[r].end());
    auto& ls = local_sums[r];
    const std::int64_t owned = multi::owns_first(sum_sum.data(), r) ? 0 : 1;
    T owed;
    const auto k = static_cast<std::int64_t>(ls.size());
    if (multi::owed_to(sum_sum.data(), r, p, owed) && k - 1 >= owned) ls.back() = multi::carry_add(ls.back(), owed);
    for (std::int64_t j = owned; j < k; ++j) got_sums.push_back(ls[j]), got_off.push_back(local_off[r][j] + cut.begin[r]);
  }
  std::vector<T> want_sums;
  std::vector<std::int64_t> want_off;
  sums(x, f, want_sums, want_off);
  REQUIRE(got_scan == scan(x, f));
  REQUIRE(got_sums == want_sums);
  REQUIRE(got_off == want_off);
}

}  // namespace

TEST_CASE("sharded carries equal the unsharded scan and sum on random splits", "[multi]") {
  const auto seed = mmv::test::fresh_seed();
  CAPTURE(seed);
  mmv::inputs::stream d(seed);
  for (int trial = 0; trial < 3000; ++trial) {
    const std::int64_t n = std::vector<std::int64_t>{0, 1, 2, 7, 64, 301}[d.integer(0, 5)];
    const int p = static_cast<int>(d.integer(1, 7));
    const double density = std::vector<double>{0.0, 0.02, 0.3, 1.0}[d.integer(0, 3)];
    const bool zero_first = d.integer(0, 1) == 1;
    check_case<std::int32_t>(d, n, p, density, zero_first);
    check_case<float>(d, n, p, density, zero_first);
  }
}

TEST_CASE("a segment across every shard is joined exactly once", "[multi]") {
  // One giant segment over 5 shards, two of them empty: the carry into the last shard is the sum
  // of everything before it, and only shard 0 owns a segment, whose sum is the whole array's.
  std::vector<shard_summary<std::int32_t>> s = {{0, 4, 0, 10}, {0, 0, 0, 0}, {3, 3, 6, 6}, {0, 0, 0, 0}, {2, 2, 5, 5}};
  REQUIRE(multi::carry_into(s.data(), 4) == 16);
  std::int32_t owed = 0;
  REQUIRE(multi::owed_to(s.data(), 0, 5, owed));
  REQUIRE(owed == 11);
  REQUIRE(multi::owns_first(s.data(), 0));
  REQUIRE_FALSE(multi::owns_first(s.data(), 2));
  REQUIRE_FALSE(multi::owed_to(s.data(), 4, 5, owed));
  // Signed zeros: -0.0 carried over an empty shard stays -0.0, as a sequential sum keeps it.
  std::vector<shard_summary<float>> z = {{0, 1, 0.0f, -0.0f}, {0, 0, 0.0f, 0.0f}, {1, 1, -0.0f, -0.0f}};
  REQUIRE(std::signbit(multi::carry_into(z.data(), 2)));
  REQUIRE(std::signbit(multi::carry_add(multi::carry_into(z.data(), 2), -0.0f)));
  float owed_z = 0;
  REQUIRE(multi::owed_to(z.data(), 0, 3, owed_z));
  REQUIRE(std::signbit(owed_z));
  // Word limit: the carry wraps like the single-GPU kernel's int32 sums.
  std::vector<shard_summary<std::int32_t>> w = {{0, 1, 0, INT32_MAX}, {1, 1, 1, 1}};
  REQUIRE(multi::carry_into(w.data(), 1) == INT32_MAX);
  REQUIRE(multi::carry_add(multi::carry_into(w.data(), 1), std::int32_t{1}) == INT32_MIN);
}
