// The one generator of random inputs, for the simulator (`mmvram run`) and the fused kernels
// (`mmvram kernels`): one RNG (SplitMix64 as a counter: mix64 of seed-derived key + index, so
// a value depends on its seed and index only and arrays fill in parallel), the named
// segment-length distributions, one Bernoulli rule of segment starts, and two value rules:
//  - bounded: the simulator's B-bit integers in [0, M] or [-M, M] and reals in [0, 1) or [-1, 1),
//    drawn in order from one `stream` (stream k-th draw = mix64(seed + k golden));
//  - nonzero: the kernels' non-zero full-range int32 and f32 in [-0.5, 1), keyed per index;
//    and hostile f32 value families (magnitude spreads, rare 1e30 items) for accuracy runs.
// Flags come as 0/1 bytes (the kernels') or as int64 words (the simulator's). A stored seed
// reproduces the same arrays (tests/tools/test_input_hashes.cpp holds their hashes).
#pragma once
#include "mmvram/model/types.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mmv::inputs {

// SplitMix64's finaliser of x + golden ratio (Steele, Lea, Flood 2014): the one mixing function.
std::uint64_t mix64(std::uint64_t x);

// SplitMix64 as a stream: the k-th draw (k = 0, 1, ...) is mix64(seed + k * golden).
class stream {
 public:
  explicit stream(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    const std::uint64_t r = mix64(state_);
    state_ += golden;
    return r;
  }
  // Uniform integer in [lo, hi], in unsigned arithmetic (hi - lo overflows int64 for
  // [-2^62, 2^62] and wider ranges).
  std::int64_t integer(std::int64_t lo, std::int64_t hi) {
    const std::uint64_t span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) + 1;
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + (span == 0 ? next() : next() % span));
  }
  // Uniform real in [0, 1) with 53 random bits.
  double unit() { return static_cast<double>(next() >> 11) * 0x1p-53; }
  // Moves the stream past `k` draws without making them.
  void skip(std::uint64_t k) { state_ += k * golden; }

 private:
  static constexpr std::uint64_t golden = 0x9e3779b97f4a7c15ULL;
  std::uint64_t state_;
};

// ---- Rules shared by both ----

// The one rule of random segment starts: n Bernoulli(p) flags (0/1 bytes) drawn from d in order,
// f[0] = 1 without a draw and f[i] = (d.unit() < p) from draw i - 1; d moves past the n - 1 draws
// (filled in parallel). `--density p` (bounded_flags) and geometric:MEAN (p = 1 / MEAN) use it.
void bernoulli_flags(stream& d, std::uint8_t* f, std::int64_t n, double p);
// About N(0, 1): the sum of 12 draws of d.unit() minus 6 (Irwin-Hall, |z| <= 6), exact IEEE
// arithmetic on the draws, so the same on every platform.
double normal_sum12(stream& d);

// ---- The simulator's rule (bounded values, one stream in order) ----

// n flags (int64 words): bernoulli_flags(d, ., n, density) widened (position 0 starts a segment,
// every other one does with probability `density`).
std::vector<word> bounded_flags(stream& d, std::int64_t n, double density);
// n integers uniform in [0, max_value] (or [-max_value, max_value] when signed).
std::vector<word> bounded_words(stream& d, std::int64_t n, std::int64_t max_value, bool signed_values);
// n reals uniform in [0, 1) (or [-1, 1) when signed), rounded to float32 when `float32`.
std::vector<real> bounded_reals(stream& d, std::int64_t n, bool signed_values, bool float32);

// ---- The kernels' rule (non-zero values, keyed per index) and the distributions ----

enum class dtype { f32, i32 };
const char* dtype_name(dtype t);
std::optional<dtype> parse_dtype(std::string_view s);

// How segment starts are placed. mean: the mean (geometric, pareto) or exact (fixed) length.
struct distribution {
  enum class kind { one_segment, no_flags, first_flag_0, all_length_1, geometric, pareto, fixed };
  kind k = kind::one_segment;
  std::int64_t mean = 0;
  std::string name() const;  // "one_segment", "geometric:1024", ... (parse() reads it back)
  std::string family() const;  // the name without ":mean"
  bool unsegmented_like() const { return k == kind::one_segment || k == kind::no_flags; }
  static std::optional<distribution> parse(std::string_view s);
};
// one_segment, no_flags, first_flag_0 (geometric:32 with flags[0] = 0), all_length_1,
// geometric / pareto with means 32, 1K, 32K, 1M, fixed 32, 1K, 32K, 1M.
std::vector<distribution> standard_distributions();

// Runs body(begin, end) over [0, n) split across hardware threads; nothing when n <= 0.
void parallel_for(std::int64_t n, const std::function<void(std::int64_t, std::int64_t)>& body);

// Non-zero values. f32: uniform in [-0.5, 1) with |x| >= 2^-10 (mean 0.25, both signs);
// i32: uniform over the non-zero int32 (sums wrap around constantly).
void fill_values(dtype t, void* host, std::int64_t n, std::uint64_t seed);
// 0/1 flags of distribution d, from a stream keyed by seed. Every distribution but no_flags and
// first_flag_0 sets flags[0]. geometric:MEAN is bernoulli_flags with p = 1 / MEAN (first_flag_0:
// geometric:32, then flags[0] = 0). Pareto lengths: alpha = 1.5, x_min = mean / 3, rounded up
// (mean slightly above `mean`), one stream.unit() draw each.
void fill_flags(const distribution& d, std::uint8_t* host, std::int64_t n, std::uint64_t seed);
// n flags (int64 words) of distribution d keyed by seed: fill_flags(d, ., n, seed) widened, so
// a simulator run with --dist gets the flags the kernels' check draws for that case seed.
std::vector<word> distribution_flags(const distribution& d, std::int64_t n, std::uint64_t seed);
// Hostile f32 values (`mmvram kernels accuracy`): a family has |x| = 10^(decades * u) (u uniform
// in [0, 1)), or, when huge_every > 0, |x| uniform in [0.5, 1) with one item in huge_every (on
// average) of 1e30 (1 + u); signs random. Keyed per index like fill_values.
struct value_family {
  std::string name;
  int decades = 0, huge_every = 0;
};
// spread:1e0 .. spread:1e30 (14 spreads), huge_1e30:1/64, huge_1e30:1/512.
std::vector<value_family> value_families();
// Fills x (n values) of family f, reproducibly from seed.
void fill_family(const value_family& f, float* x, std::int64_t n, std::uint64_t seed);

// Number of segments (position 0 always starts one).
std::int64_t count_segments(const std::uint8_t* flags, std::int64_t n);

}  // namespace mmv::inputs
