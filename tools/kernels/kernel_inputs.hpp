// Test and benchmark inputs: element types, segment-length distributions, and the generators
// of non-zero random values and of flags (counter-based hashing, so generation is parallel and
// reproducible from a seed).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mmv::gpu::harness {

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

// Runs body(begin, end) over [0, n) split across hardware threads.
void parallel_for(std::int64_t n, const std::function<void(std::int64_t, std::int64_t)>& body);

// Non-zero values. f32: uniform in [-0.5, 1) with |x| >= 2^-10 (mean 0.25, both signs);
// i32: uniform over the non-zero int32 (sums wrap around constantly).
void fill_values(dtype t, void* host, std::int64_t n, std::uint64_t seed);
// 0/1 flags of distribution d. Every distribution but no_flags and first_flag_0 sets flags[0].
// Pareto lengths: alpha = 1.5, x_min = mean / 3, rounded up (mean slightly above `mean`).
void fill_flags(const distribution& d, std::uint8_t* host, std::int64_t n, std::uint64_t seed);
// Number of segments (position 0 always starts one).
std::int64_t count_segments(const std::uint8_t* flags, std::int64_t n);

std::uint64_t mix64(std::uint64_t x);  // splitmix64 finaliser
// bf16 as raw bits: round a finite float to nearest even, and widen back (exact).
std::uint16_t to_bf16_bits(float f);
float from_bf16_bits(std::uint16_t b);
std::string format_count(std::int64_t n);  // 268435456 -> "2^28", 1048576+3 -> "1048579"

}  // namespace mmv::gpu::harness
