// The kernels' checks (kernel_reference.hpp): each compares a kernel's output with the reference
// that the parallel walk (kernel_walk.hpp) computes through the one segmented accumulation of
// reference.hpp (int32 wrapping; f32 as an exact_sum rounded once to float64).
#include "mmvram/harness/kernel_reference.hpp"

#include <cstring>
#include <sstream>
#include <type_traits>

#include "kernel_walk.hpp"

namespace mmv::kernel_reference {

using inputs::count_segments;
namespace {

std::string fmt(double v) {
  std::ostringstream s;
  s.precision(9);
  s << v;
  return s.str();
}

// Records an f32 error against the result's own scale (max_scaled_error and bits_lost).
void note_accuracy(verdict& v, double err, double own) {
  double units = own > 0 ? err / (kF32UnitRoundoff * own) : (err == 0 ? 0.0 : INFINITY);
  if (std::isnan(units)) units = INFINITY;
  v.max_scaled_error = std::max(v.max_scaled_error, units * kF32UnitRoundoff);
  const int bin = units < 1 ? 0 : units >= 1 / kF32UnitRoundoff ? kBitsLostBins - 1 : std::ilogb(units) + 1;
  ++v.bits_lost[std::min(bin, kBitsLostBins - 1)];
}

// A single-item result (a segment's first scan output, a one-item segment's sum): x itself in
// every summation order, so the ordinary bound applies to it alone, with nothing for REVERT.
// name[at] names the result in the message. head (block > 0): the start block's sum of |x| before
// it, for the error over V3's derived bound kRevertCoefficient * (head + |x|).
void check_single(verdict& v, std::int64_t index, const char* name, std::int64_t at, double got, double x,
                  std::int64_t block, double head) {
  ++v.single_results;
  const double err = std::fabs(got - x), bound = f32_bound(1);
  double rel = x != 0 ? err / std::fabs(x) : (err == 0 ? 0.0 : INFINITY);
  if (std::isnan(rel)) rel = INFINITY;
  v.max_single_error = std::max(v.max_single_error, rel);
  if (block > 0 && std::isfinite(head))
    v.single_over_derived = std::max(v.single_over_derived, err / (kRevertCoefficient * (head + std::fabs(x))));
  v.worst_ratio = std::max(v.worst_ratio, rel / bound);
  if (rel <= bound) return;
  ++v.single_bad;
  record_bad(v, index, [&] {
    return std::string(name) + "[" + std::to_string(at) + "] = " + fmt(got) + ", expected x = " + fmt(x) + " (one item: exact in every order): relative error " +
           fmt(rel) + " > bound " + fmt(bound);
  });
}

// An f32 error less V3's REVERT bound for head (kRevertCoefficient * head; none when head is 0
// or not finite: V3 scans a block holding inf or NaN on the CUDA cores). NaN errors stay NaN.
double beyond(double err, double head) {
  const double allowance = std::isfinite(head) ? kRevertCoefficient * head : 0.0;
  return err <= allowance ? 0.0 : err - allowance;
}

template <class T>
verdict scan_check(const T* x, const std::uint8_t* flags, const T* out, std::int64_t n, std::int64_t block,
                   std::int64_t phase) {
  if constexpr (std::is_same_v<T, float>) {
    return walk(
        x, flags, n, block, phase,
        [out, block](std::int64_t i, T xi, double ref, auto& r, verdict& v, const scale& sc) {
          const double err = std::fabs(static_cast<double>(out[i]) - ref);
          note_accuracy(v, err, sc.own);
          r.ref2 += ref * ref;
          if (sc.single) {
            check_single(v, i, "out", i, out[i], xi, block, sc.head);
            return;
          }
          const double d = beyond(err, sc.head);
          r.err2 += d * d;
          r.raw2 += err * err;
        },
        [](std::int64_t, const auto& r, verdict& v) {
          double rel = std::sqrt(r.err2 / r.ref2), raw = std::sqrt(r.raw2 / r.ref2);
          if (std::isnan(rel)) rel = r.err2 == 0 ? 0.0 : INFINITY;
          if (std::isnan(raw)) raw = r.raw2 == 0 ? 0.0 : INFINITY;
          const double bound = f32_bound(r.len);
          v.max_error = std::max(v.max_error, raw);
          v.worst_ratio = std::max(v.worst_ratio, rel / bound);
          if (!(rel <= bound))
            record_bad(v, r.start, [&] {
              return "segment [" + std::to_string(r.start) + ", +" + std::to_string(r.len) +
                     "): relative error " + fmt(rel) + " > bound " + fmt(bound);
            });
        });
  } else {
    return walk(
        x, flags, n, 0, 0,
        [out](std::int64_t i, T, std::int32_t ref, auto&, verdict& v, const scale&) {
          if (out[i] != ref) {
            v.max_error = 1;
            record_bad(v, i, [&] { return "out[" + std::to_string(i) + "] = " + std::to_string(out[i]) + ", expected " +
                                          std::to_string(ref); });
          }
        },
        [](std::int64_t, const auto&, verdict&) {});
  }
}

template <class T>
verdict sum_check(const T* x, const std::uint8_t* flags, const T* sums, const std::int64_t* offsets,
                  std::int64_t n, std::int64_t block, std::int64_t phase) {
  auto check_offset = [offsets](std::int64_t seg, const auto& r, verdict& v) {
    if (offsets != nullptr && offsets[seg] != r.start) {
      v.layout_error = true;
      record_bad(v, r.start, [&] { return std::string("offsets[" + std::to_string(seg) + "] = " + std::to_string(offsets[seg]) +
                                 ", expected " + std::to_string(r.start)); });
    }
  };
  if constexpr (std::is_same_v<T, float>) {
    return walk(
        x, flags, n, block, phase,
        [](auto&&...) {},
        [sums, check_offset, block](std::int64_t seg, const auto& r, verdict& v) {
          check_offset(seg, r, v);
          const double raw = std::fabs(static_cast<double>(sums[seg]) - r.total), abs_sum = r.last.own;
          note_accuracy(v, raw, abs_sum);
          if (r.len == 1) {
            check_single(v, r.start, "sums", seg, sums[seg], r.total, block, r.last.head);
            return;
          }
          double err = beyond(raw, r.last.head);
          if (std::isnan(err)) err = INFINITY;
          const double bound = f32_bound(r.len) * abs_sum;
          v.max_error = std::max(v.max_error, std::isnan(raw) ? INFINITY : raw / abs_sum);
          v.worst_ratio = std::max(v.worst_ratio, err / bound);
          if (!(err <= bound))
            record_bad(v, r.start, [&] { return "sums[" + std::to_string(seg) + "] = " + fmt(sums[seg]) + ", expected " + fmt(r.total) + " (length " +
                                                std::to_string(r.len) + ")"; });
        });
  } else {
    return walk(
        x, flags, n, 0, 0,
        [](auto&&...) {},
        [sums, check_offset](std::int64_t seg, const auto& r, verdict& v) {
          check_offset(seg, r, v);
          if (sums[seg] != r.total) {
            v.max_error = 1;
            record_bad(v, r.start, [&] { return "sums[" + std::to_string(seg) + "] = " + std::to_string(sums[seg]) +
                                                ", expected " + std::to_string(r.total); });
          }
        });
  }
}

// The sum of x[0, n) as one segment of the walk, against *sum (read unaligned): i32 exact
// (wrapping), f32 |out - ref| <= f32_bound(n) * sum |x|.
template <class T>
verdict reduce_check(const T* x, const void* sum, std::int64_t n) {
  T got;
  std::memcpy(&got, sum, sizeof got);
  typename reference::running_sum<T>::value_type want{};
  double magnitudes = 0;
  verdict v = walk(x, static_cast<const std::uint8_t*>(nullptr), n, 0, 0, [](auto&&...) {},
                   [&](std::int64_t, const auto& r, verdict&) { want = r.total, magnitudes = r.last.own; });
  v.num_segments = 1;
  if constexpr (std::is_same_v<T, std::int32_t>) {
    if (got != want) {
      v.max_error = 1;
      record_bad(v, 0, [&] { return "sum " + std::to_string(got) + ", expected " + std::to_string(want); });
    }
  } else {
    const double bound = f32_bound(n);
    const double rel = magnitudes > 0 ? std::fabs(got - want) / magnitudes : std::fabs(got - want);
    v.max_error = rel;
    v.worst_ratio = rel / bound;
    if (!(rel <= bound))
      record_bad(v, 0, [&] { return "sum " + fmt(got) + ", expected " + fmt(want) + ": error " + fmt(rel) + " > bound " + fmt(bound); });
  }
  return v;
}

}  // namespace

verdict verify_segmented_scan(dtype t, const void* x, const std::uint8_t* flags, const void* out,
                              std::int64_t n, std::int64_t speculation_block, std::int64_t block_phase) {
  if (t == dtype::f32)
    return scan_check(static_cast<const float*>(x), flags, static_cast<const float*>(out), n, speculation_block,
                      block_phase);
  return scan_check(static_cast<const std::int32_t*>(x), flags, static_cast<const std::int32_t*>(out), n, 0, 0);
}

verdict verify_segmented_sum(dtype t, const void* x, const std::uint8_t* flags, const void* sums,
                             const std::int64_t* offsets, std::int64_t reported_segments,
                             std::int64_t n, std::int64_t speculation_block, std::int64_t block_phase) {
  const std::int64_t expected = count_segments(flags, n);
  verdict v;
  v.num_segments = expected;
  if (reported_segments != expected) {
    v.layout_error = true;
    record_bad(v, 0, [&] { return std::string("num_segments = " + std::to_string(reported_segments) + ", expected " +
                         std::to_string(expected)); });
    return v;
  }
  if (offsets != nullptr && offsets[expected] != n) {
    v.layout_error = true;
    record_bad(v, n, [&] { return std::string("offsets[num_segments] = " + std::to_string(offsets[expected]) + ", expected n = " +
                         std::to_string(n)); });
    return v;
  }
  if (t == dtype::f32)
    return sum_check(static_cast<const float*>(x), flags, static_cast<const float*>(sums), offsets, n,
                     speculation_block, block_phase);
  return sum_check(static_cast<const std::int32_t*>(x), flags, static_cast<const std::int32_t*>(sums),
                   offsets, n, 0, 0);
}

verdict verify_reduce(dtype t, const void* x, const void* sum, std::int64_t n) {
  if (t == dtype::i32) return reduce_check(static_cast<const std::int32_t*>(x), sum, n);
  return reduce_check(static_cast<const float*>(x), sum, n);
}

verdict verify_copy(const void* x, const void* out, std::int64_t bytes) {
  verdict v;
  v.num_segments = 1;
  if (std::memcmp(x, out, static_cast<std::size_t>(bytes)) != 0) {
    const auto* a = static_cast<const unsigned char*>(x);
    const auto* b = static_cast<const unsigned char*>(out);
    std::int64_t i = 0;
    while (a[i] == b[i]) ++i;
    v.max_error = 1;
    record_bad(v, i, [&] { return std::string("byte " + std::to_string(i) + " differs"); });
  }
  return v;
}

}  // namespace mmv::kernel_reference
