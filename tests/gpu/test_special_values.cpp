// Float inputs that the random data of `mmvram kernels check` never holds: values spanning
// 2^-60..2^60, subnormals, values at and near FLT_MAX, and inf / NaN. Every fp32 kernel is
// compared with a sequential fp32 sum (the class of each result: finite, +inf, -inf or NaN, which
// no summation order changes while nothing overflows) and with a float64 sum (the size of finite
// errors). The documented differences: the tensor-core variants (*_tc, *_tc_rows, *_tc_warp) split
// items into bf16 parts, whose smallest subnormal is 2^-133, so an item loses what lies below
// that; each finite result may differ by 2^-133 per item summed on top of the fp32 bound. V3
// (*_tc_warp) REVERTs by subtraction: its results of two items or more get its derived bound
// (kRevertCoefficient times H, the sum of |x| over the start's 512-item block before the
// start, harness/tolerance.hpp); a single-item result is x in every order and gets the fp32
// bound alone. V3's fp32 is a documented inaccuracy (docs/gpu_v3_error.md): its finite errors beyond the rule are
// printed, not required; its classes are. Segmented sums of the subnormal cases are exact in any
// order, so there every other segmented kernel must match the sequential sum bit for bit.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <cstring>
#include <string>
#include <vector>

#include "mmvram/harness/random_inputs.hpp"
#include "catch.hpp"
#include "check.hpp"
#include "mmvram/gpu/runtime/buffer.hpp"
#include "mmvram/gpu/runtime/device.hpp"
#include "mmvram/gpu/runtime/stream.hpp"
#include "mmvram/gpu/baselines/baselines.hpp"

namespace {

using namespace mmv::tool::kernels;
using mmv::f32_bound;
using mmv::kRevertCoefficient;
using mmv::inputs::distribution;
using mmv::inputs::dtype;
using mmv::inputs::fill_flags;
namespace runtime = mmv::gpu::runtime;

int value_class(float v) { return std::isnan(v) ? 3 : std::isinf(v) ? (v > 0 ? 1 : 2) : 0; }
const char* class_name(int c) { return c == 0 ? "finite" : c == 1 ? "+inf" : c == 2 ? "-inf" : "NaN"; }

struct special_case {
  std::string name;
  std::vector<float> x;
  std::vector<std::uint8_t> flags;
  bool exact_segments = false;  // every segment's sum is exact in fp32, whatever the order
};

// Runs kernel k (a scan or a segmented sum) on host data with x, flags and out `offset` items
// past aligned allocations; returns out (n values) or the sums, and sets phase to where V3's
// speculation blocks start for those pointers (kernel_info::speculation_phase).
std::vector<float> run_on_device(const kernel_info& k, const special_case& c, std::size_t offset, std::int64_t& phase) {
  const auto n = static_cast<std::int64_t>(c.x.size());
  runtime::device_buffer xb(4 * (c.x.size() + offset)), flagb(c.flags.size() + offset), outb(4 * (c.x.size() + offset)),
      offsets(8 * (c.x.size() + 1)), count(8), sums_offsets(8 * (c.x.size() + 1));
  float* const x = xb.as<float>() + offset;
  float* const out = outb.as<float>() + offset;
  std::uint8_t* const flags = flagb.as<std::uint8_t>() + offset;
  runtime::check(cudaMemcpy(x, c.x.data(), 4 * c.x.size(), cudaMemcpyHostToDevice), "upload");
  runtime::check(cudaMemcpy(flags, c.flags.data(), c.flags.size(), cudaMemcpyHostToDevice), "upload");
  std::int64_t segs = 0;
  for (std::int64_t i = 0; i < n; ++i) segs += i == 0 || c.flags[i] != 0;
  device_inputs in{};
  in.type = dtype::f32;
  in.n = n;
  in.x = x;
  in.flags = flags;
  in.num_segments = segs;
  if (k.needs_offsets) {
    std::size_t tb = 0;
    mmv::gpu::baselines::make_segment_offsets(in.flags, offsets.as<std::int64_t>(), count.as<std::int64_t>(), n, nullptr, tb);
    runtime::device_buffer tmp(tb);
    mmv::gpu::baselines::make_segment_offsets(in.flags, offsets.as<std::int64_t>(), count.as<std::int64_t>(), n, tmp.get(), tb);
    in.offsets = offsets.as<std::int64_t>();
  }
  const device_outputs o{out, sums_offsets.as<std::int64_t>(), count.as<std::int64_t>()};
  phase = k.speculation_phase(x, flags, out);
  std::size_t tb = 0;
  k.run(in, o, nullptr, tb, nullptr);
  runtime::device_buffer temp(std::max<std::size_t>(tb, 1));
  k.run(in, o, temp.get(), tb, nullptr);
  runtime::check(cudaDeviceSynchronize(), k.name);
  std::vector<float> h(k.kind == op::segmented_sum ? static_cast<std::size_t>(segs) : c.x.size());
  runtime::check(cudaMemcpy(h.data(), out, 4 * h.size(), cudaMemcpyDeviceToHost), "download");
  return h;
}

// Sequential fp32 and float64 references: per item (scans) or per segment (sums), with the
// float64 sum of |x| so far (the scale of a finite error) and, for kernels with a speculation
// block (kernel_info), H of the segment's start (mmvram/harness/tolerance.hpp: kRevertCoefficient).
struct reference {
  std::vector<float> fp32;
  std::vector<double> fp64, abs_sum, head;
  std::vector<std::int64_t> length;
};
reference sequential(const special_case& c, bool segmented, bool sums, std::int64_t block, std::int64_t phase) {
  reference r;
  float acc = 0;
  double acc64 = 0, abs64 = 0, blk = 0, head = 0;
  std::int64_t len = 0;
  auto push = [&] {
    r.fp32.push_back(acc), r.fp64.push_back(acc64), r.abs_sum.push_back(abs64), r.length.push_back(len);
    r.head.push_back(head);
  };
  for (std::size_t i = 0; i < c.x.size(); ++i) {
    const bool start = i == 0 || (segmented && c.flags[i] != 0);
    if (start && sums && i > 0) push();
    if (block > 0 && (static_cast<std::int64_t>(i) + phase) % block == 0) blk = 0;  // |x| of i's block before i
    if (start) acc = 0, acc64 = 0, abs64 = 0, len = 0, head = blk;
    acc += c.x[i];
    acc64 += double(c.x[i]);
    abs64 += std::fabs(double(c.x[i]));
    if (block > 0) blk += std::fabs(double(c.x[i]));
    ++len;
    if (!sums) push();
  }
  if (sums && !c.x.empty()) push();
  return r;
}

struct comparison {
  std::int64_t class_mismatches = 0, first_mismatch = -1, finite_outside_bound = 0, not_bitwise = 0;
  std::string first_detail;
  double worst_ratio = 0;
};
// Class of every result against the sequential fp32 sum; finite results within
// f32_bound(len) * sum |x| + len * 2^-133 of the float64 sum, plus V3's derived bound
// kRevertCoefficient * H for results of two items or more (none where H is not finite: V3 scans
// a block holding inf or NaN on the CUDA cores).
comparison compare(const std::vector<float>& got, const reference& ref) {
  comparison cmp;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const int want = value_class(ref.fp32[i]), have = value_class(got[i]);
    if (std::memcmp(&got[i], &ref.fp32[i], 4) != 0) ++cmp.not_bitwise;
    if (want != have) {
      if (cmp.first_mismatch < 0) {
        cmp.first_mismatch = static_cast<std::int64_t>(i);
        cmp.first_detail = std::string("result ") + std::to_string(i) + " is " + class_name(have) + ", sequential fp32 gives " + class_name(want);
      }
      ++cmp.class_mismatches;
      continue;
    }
    if (want != 0 || !std::isfinite(ref.fp64[i])) continue;
    const double err = std::fabs(double(got[i]) - ref.fp64[i]);
    const bool revert = ref.length[i] > 1 && std::isfinite(ref.head[i]);
    const double scale = ref.abs_sum[i] * f32_bound(ref.length[i]) + double(ref.length[i]) * std::ldexp(1.0, -133) +
                         (revert ? kRevertCoefficient * ref.head[i] : 0.0);
    const double ratio = err / scale;
    cmp.worst_ratio = std::max(cmp.worst_ratio, ratio);
    if (!(ratio <= 1)) ++cmp.finite_outside_bound;
  }
  return cmp;
}

std::vector<std::uint8_t> flags_of(const std::string& dist, std::size_t n, std::uint64_t seed) {
  std::vector<std::uint8_t> f(n);
  fill_flags(*distribution::parse(dist), f.data(), static_cast<std::int64_t>(n), seed);
  return f;
}

std::vector<special_case> make_cases() {
  std::mt19937_64 g(20261123);
  std::uniform_real_distribution<float> unit(1.0f, 2.0f), mixed(-0.5f, 1.0f);
  std::vector<special_case> cases;
  const std::size_t n = (1u << 20) + 3;
  for (const char* dist : {"one_segment", "geometric:32", "fixed:4096"}) {
    special_case wide{std::string("wide 2^-60..2^60, ") + dist, std::vector<float>(n), flags_of(dist, n, g())};
    for (auto& v : wide.x) v = std::ldexp(unit(g), static_cast<int>(g() % 121) - 60) * ((g() & 1) ? 1.0f : -1.0f);
    cases.push_back(wide);
    special_case nonfinite{std::string("inf and NaN, ") + dist, std::vector<float>(n), flags_of(dist, n, g())};
    for (auto& v : nonfinite.x) {
      const std::uint64_t r = g() % 3000;
      v = r == 0 ? INFINITY : r == 1 ? -INFINITY : r == 2 ? NAN : mixed(g);
    }
    cases.push_back(nonfinite);
  }
  // Subnormal items k * 2^-149 (k < 64) in segments short enough that every sum is exact.
  for (const char* dist : {"geometric:32", "fixed:4096"}) {
    special_case sub{std::string("subnormal, ") + dist, std::vector<float>(n), flags_of(dist, n, g()), true};
    for (auto& v : sub.x) v = std::ldexp(float(g() % 64), -149);
    cases.push_back(sub);
  }
  // Near FLT_MAX: alternating +-0.75 FLT_MAX (every sequential prefix finite), and pairs of
  // +0.75 FLT_MAX whose sum overflows to +inf.
  special_case big{"alternating +-0.75 FLT_MAX, one_segment", std::vector<float>(n), flags_of("one_segment", n, 1)};
  for (std::size_t i = 0; i < n; ++i) big.x[i] = (i % 2 ? -0.75f : 0.75f) * FLT_MAX;
  cases.push_back(big);
  special_case at_max{"alternating +-FLT_MAX, one_segment", std::vector<float>(n), flags_of("one_segment", n, 1)};
  for (std::size_t i = 0; i < n; ++i) at_max.x[i] = i % 2 ? -FLT_MAX : FLT_MAX;
  cases.push_back(at_max);
  special_case overflow{"pairs of 0.75 FLT_MAX, fixed:2", std::vector<float>(n, 0.75f * FLT_MAX), flags_of("fixed:2", n, 1)};
  cases.push_back(overflow);
  return cases;
}

}  // namespace

// Aligned pointers and, for the fused kernels, x, flags and out 5 items on (their tiles shifted
// by 5). The CUB baselines sum in another order there, which changes where a partial sum overflows.
TEST_CASE("fp32 kernels on wide-range, subnormal, near-FLT_MAX and non-finite values", "[ours][special]") {
  std::string err;
  const auto kernels = select_kernels("matmul_scan,matmul_scan_tc,cub_inclusive_sum,sscr_segmented_scan,"
                                      "sscr_segmented_scan_tc,sscr_segmented_scan_tc_rows,sscr_segmented_scan_tc_warp,"
                                      "cub_flag_pair_scan,matmul_scan_tc_warp,scd_segmented_sum,scd_segmented_sum_tc,"
                                      "scd_segmented_sum_tc_rows,scd_segmented_sum_tc_warp,"
                                      "cub_segmented_reduce_sum", err);
  REQUIRE(!kernels.empty());
  for (const special_case& c : make_cases())
    for (std::size_t offset : {0, 5})
      for (const kernel_info* k : kernels) {
        if (offset != 0 && k->family != "ours" && k->family != "ablation") continue;
        const bool segmented = k->kind != op::scan, sums = k->kind == op::segmented_sum;
        std::int64_t phase = 0;
        const auto got = run_on_device(*k, c, offset, phase);
        const reference ref = sequential(c, segmented, sums, k->speculation_block, phase);
        REQUIRE(got.size() == ref.fp32.size());
        const comparison cmp = compare(got, ref);
        std::printf("special %-26s %-44s +%zu results %8zu  class mismatches %7lld  finite beyond bound %6lld (worst %.3g)  not bitwise %7lld  %s%s\n",
                    k->name.c_str(), c.name.c_str(), offset, got.size(), static_cast<long long>(cmp.class_mismatches),
                    static_cast<long long>(cmp.finite_outside_bound), cmp.worst_ratio,
                    static_cast<long long>(cmp.not_bitwise), cmp.first_detail.c_str(),
                    k->claims_fp32_accuracy ? "" : " [documented inaccuracy: recorded, not required]");
        INFO(k->name << " on " << c.name << " offset " << offset << ": " << cmp.first_detail);
        CHECK(cmp.class_mismatches == 0);
        if (k->claims_fp32_accuracy) CHECK(cmp.finite_outside_bound == 0);
        if (c.exact_segments && segmented && k->family != "ablation") CHECK(cmp.not_bitwise == 0);
      }
}
