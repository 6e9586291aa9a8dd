// The CPU side of check: one parallel walk over the segments (chunks of the array scanned in
// parallel; segments cut by chunk boundaries are joined in order) drives the three comparisons.
#include "mmvram/harness/kernel_reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <sstream>
#include <thread>
#include <vector>

namespace mmv::kernel_reference {

using inputs::count_segments;
namespace {

template <class T> struct acc_of;
template <> struct acc_of<float> { using type = double; };
template <> struct acc_of<std::int32_t> { using type = std::uint32_t; };
template <class T> using acc_t = typename acc_of<T>::type;

template <class A> A widen(float v) { return static_cast<double>(v); }
template <class A> A widen(std::int32_t v) { return static_cast<std::uint32_t>(v); }

// What a result is measured against (walk()): own = the sum of |x| over its segment up to it;
// head = the sum of |x| over its segment start's block before the start (0 without blocks);
// single = the result is its segment's first item alone.
struct scale {
  double own = 0, head = 0;
  bool single = false;
};

// The part of one segment that lies inside one chunk, with what the checks accumulate over it.
struct run_stats {
  std::int64_t start = -1, len = 0;
  double err2 = 0, raw2 = 0, ref2 = 0;  // f32 scans: errors beyond V3's bound, whole errors, reference
  double sum = 0, abs_sum = 0;          // f32 sums
  std::uint32_t isum = 0;               // i32 sums
  scale last;                           // f32: walk()'s scale at the last item
  void join(const run_stats& o) {
    if (o.len > 0) last = o.last;
    len += o.len;
    err2 += o.err2;
    raw2 += o.raw2;
    ref2 += o.ref2;
    sum += o.sum;
    abs_sum += o.abs_sum;
    isum += o.isum;
  }
};

// Counts a failure at index; why() (building the message) runs only for the first one.
template <class Why>
void record_bad(verdict& v, std::int64_t index, Why why) {
  v.pass = false;
  ++v.bad;
  if (v.first_bad < 0 || index < v.first_bad) {
    v.first_bad = index;
    v.detail = why();
  }
}

void merge(verdict& into, const verdict& from) {
  into.pass = into.pass && from.pass;
  into.bad += from.bad;
  into.max_error = std::max(into.max_error, from.max_error);
  into.worst_ratio = std::max(into.worst_ratio, from.worst_ratio);
  into.layout_error = into.layout_error || from.layout_error;
  into.max_scaled_error = std::max(into.max_scaled_error, from.max_scaled_error);
  into.max_single_error = std::max(into.max_single_error, from.max_single_error);
  into.single_over_derived = std::max(into.single_over_derived, from.single_over_derived);
  into.single_results += from.single_results;
  into.single_bad += from.single_bad;
  for (int b = 0; b < kBitsLostBins; ++b) into.bits_lost[b] += from.bits_lost[b];
  if (from.first_bad >= 0 && (into.first_bad < 0 || from.first_bad < into.first_bad)) {
    into.first_bad = from.first_bad;
    into.detail = from.detail;
  }
}

void parallel_tasks(std::int64_t count, const std::function<void(std::int64_t)>& task) {
  const std::int64_t threads = std::clamp<std::int64_t>(std::thread::hardware_concurrency(), 1, 64);
  std::vector<std::thread> pool;
  for (std::int64_t t = 0; t < std::min(threads, count); ++t)
    pool.emplace_back([&, t] {
      for (std::int64_t k = t; k < count; k += threads) task(k);
    });
  for (auto& th : pool) th.join();
}

double magnitude(float v) { return std::fabs(static_cast<double>(v)); }
double magnitude(std::int32_t) { return 0; }

// Walks [0, n): visit(i, x_i, ref_i, run, chunk_verdict, sc) per element, with ref_i the
// reference inclusive segmented prefix and sc its scale (struct scale; head over aligned
// `block`-item blocks, 0 when block == 0); close(segment_index, run, verdict) once per segment.
template <class T, class Visit, class Close>
verdict walk(const T* x, const std::uint8_t* flags, std::int64_t n, std::int64_t block, Visit visit, Close close) {
  using A = acc_t<T>;
  auto head = [flags](std::int64_t i) { return i == 0 || (flags != nullptr && flags[i] != 0); };
  struct chunk {
    bool has_head = false;
    std::int64_t heads = 0, seg0 = 0, last_seg = -1;
    A tail{}, carry{};
    double tail_abs = 0, carry_abs = 0;           // sum of |x| since the chunk's last start (or over it)
    std::int64_t last_head = -1, open_start = 0;  // the chunk's last start; the start open at its first item
    run_stats first, last;
    verdict v;
  };
  const std::int64_t count = std::clamp<std::int64_t>(n / 65536, 1, 512);
  std::vector<chunk> c(static_cast<std::size_t>(count));
  auto lo = [&](std::int64_t k) { return n * k / count; };
  // Sum of |x| over [from, to) (at most one block here).
  auto abs_sum = [&](std::int64_t from, std::int64_t to) {
    double b = 0;
    for (std::int64_t j = from; j < to; ++j) b += magnitude(x[j]);
    return b;
  };
  parallel_tasks(count, [&](std::int64_t k) {
    chunk& ck = c[k];
    for (std::int64_t i = lo(k); i < lo(k + 1); ++i) {
      if (head(i)) {
        ck.has_head = true;
        ++ck.heads;
        ck.tail = widen<A>(x[i]);
        ck.tail_abs = magnitude(x[i]);
        ck.last_head = i;
      } else {
        ck.tail = ck.tail + widen<A>(x[i]);
        ck.tail_abs += magnitude(x[i]);
      }
    }
  });
  A carry{};
  double carry_abs = 0;
  std::int64_t segs = 0, open_start = 0;
  for (chunk& ck : c) {
    ck.carry = carry;
    ck.carry_abs = carry_abs;
    ck.seg0 = segs;
    ck.open_start = open_start;
    carry = ck.has_head ? ck.tail : carry + ck.tail;
    carry_abs = ck.has_head ? ck.tail_abs : carry_abs + ck.tail_abs;
    if (ck.has_head) open_start = ck.last_head;
    segs += ck.heads;
  }
  parallel_tasks(count, [&](std::int64_t k) {
    chunk& ck = c[k];
    A ref = ck.carry;
    std::int64_t seg = ck.seg0 - 1;
    run_stats cur;
    bool first = true;
    scale sc{ck.carry_abs, 0.0, false};
    // blk: sum of |x| over i's block before i; sc.head: the open segment's start block before it.
    double blk = 0;
    if (block > 0) {
      blk = abs_sum(lo(k) / block * block, lo(k));
      sc.head = abs_sum(ck.open_start / block * block, ck.open_start);
    }
    for (std::int64_t i = lo(k); i < lo(k + 1); ++i) {
      if (block > 0 && i % block == 0) blk = 0;
      sc.single = head(i);
      if (sc.single) {
        if (first) ck.first = cur;
        else close(seg, cur, ck.v);
        first = false;
        ++seg;
        cur = run_stats{};
        cur.start = i;
        ref = widen<A>(x[i]);
        sc.own = magnitude(x[i]);
        sc.head = blk;
      } else {
        ref = ref + widen<A>(x[i]);
        sc.own += magnitude(x[i]);
      }
      if (block > 0) blk += magnitude(x[i]);
      ++cur.len;
      visit(i, x[i], ref, cur, ck.v, sc);
    }
    if (first) {
      ck.first = cur;
    } else {
      ck.last = cur;
      ck.last_seg = seg;
    }
  });
  verdict v;
  run_stats open;
  std::int64_t open_seg = -1;
  for (chunk& ck : c) {
    if (open_seg >= 0) open.join(ck.first);
    if (ck.has_head) {
      if (open_seg >= 0) close(open_seg, open, v);
      open = ck.last;
      open_seg = ck.last_seg;
    }
    merge(v, ck.v);
  }
  if (open_seg >= 0) close(open_seg, open, v);
  v.num_segments = segs;
  return v;
}

std::string fmt(double v) {
  std::ostringstream s;
  s.precision(9);
  s << v;
  return s.str();
}

// Records an f32 error against the result's own scale (max_scaled_error and bits_lost).
void note_accuracy(verdict& v, double err, double own) {
  double units = own > 0 ? err / (0x1p-24 * own) : (err == 0 ? 0.0 : INFINITY);
  if (std::isnan(units)) units = INFINITY;
  v.max_scaled_error = std::max(v.max_scaled_error, units * 0x1p-24);
  const int bin = units < 1 ? 0 : units >= 0x1p24 ? kBitsLostBins - 1 : std::ilogb(units) + 1;
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
verdict scan_check(const T* x, const std::uint8_t* flags, const T* out, std::int64_t n, std::int64_t block) {
  if constexpr (std::is_same_v<T, float>) {
    return walk(
        x, flags, n, block,
        [out, block](std::int64_t i, T xi, double ref, run_stats& r, verdict& v, const scale& sc) {
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
        [](std::int64_t, const run_stats& r, verdict& v) {
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
        x, flags, n, 0,
        [out](std::int64_t i, T, std::uint32_t ref, run_stats&, verdict& v, const scale&) {
          if (static_cast<std::uint32_t>(out[i]) != ref) {
            v.max_error = 1;
            record_bad(v, i, [&] { return std::string("out[" + std::to_string(i) + "] = " + std::to_string(out[i]) + ", expected " +
                                 std::to_string(static_cast<std::int32_t>(ref))); });
          }
        },
        [](std::int64_t, const run_stats&, verdict&) {});
  }
}

template <class T>
verdict sum_check(const T* x, const std::uint8_t* flags, const T* sums, const std::int64_t* offsets,
                  std::int64_t n, std::int64_t block) {
  auto check_offset = [offsets](std::int64_t seg, const run_stats& r, verdict& v) {
    if (offsets != nullptr && offsets[seg] != r.start) {
      v.layout_error = true;
      record_bad(v, r.start, [&] { return std::string("offsets[" + std::to_string(seg) + "] = " + std::to_string(offsets[seg]) +
                                 ", expected " + std::to_string(r.start)); });
    }
  };
  if constexpr (std::is_same_v<T, float>) {
    return walk(
        x, flags, n, block,
        [](std::int64_t, T xi, double, run_stats& r, verdict&, const scale& sc) {
          r.sum += xi;
          r.abs_sum += std::fabs(static_cast<double>(xi));
          r.last = sc;
        },
        [sums, check_offset, block](std::int64_t seg, const run_stats& r, verdict& v) {
          check_offset(seg, r, v);
          const double raw = std::fabs(static_cast<double>(sums[seg]) - r.sum);
          note_accuracy(v, raw, r.abs_sum);
          if (r.len == 1) {
            check_single(v, r.start, "sums", seg, sums[seg], r.sum, block, r.last.head);
            return;
          }
          double err = beyond(raw, r.last.head);
          if (std::isnan(err)) err = INFINITY;
          const double bound = f32_bound(r.len) * r.abs_sum;
          v.max_error = std::max(v.max_error, std::isnan(raw) ? INFINITY : raw / r.abs_sum);
          v.worst_ratio = std::max(v.worst_ratio, err / bound);
          if (!(err <= bound))
            record_bad(v, r.start, [&] { return "sums[" + std::to_string(seg) + "] = " + fmt(sums[seg]) + ", expected " + fmt(r.sum) + " (length " +
                                                std::to_string(r.len) + ")"; });
        });
  } else {
    return walk(
        x, flags, n, 0,
        [](std::int64_t, T xi, std::uint32_t, run_stats& r, verdict&, const scale&) { r.isum += static_cast<std::uint32_t>(xi); },
        [sums, check_offset](std::int64_t seg, const run_stats& r, verdict& v) {
          check_offset(seg, r, v);
          if (static_cast<std::uint32_t>(sums[seg]) != r.isum) {
            v.max_error = 1;
            record_bad(v, r.start, [&] { return std::string("sums[" + std::to_string(seg) + "] = " + std::to_string(sums[seg]) +
                                       ", expected " + std::to_string(static_cast<std::int32_t>(r.isum))); });
          }
        });
  }
}

}  // namespace

verdict verify_segmented_scan(dtype t, const void* x, const std::uint8_t* flags, const void* out,
                              std::int64_t n, std::int64_t speculation_block) {
  if (t == dtype::f32)
    return scan_check(static_cast<const float*>(x), flags, static_cast<const float*>(out), n, speculation_block);
  return scan_check(static_cast<const std::int32_t*>(x), flags, static_cast<const std::int32_t*>(out), n, 0);
}

verdict verify_segmented_sum(dtype t, const void* x, const std::uint8_t* flags, const void* sums,
                             const std::int64_t* offsets, std::int64_t reported_segments,
                             std::int64_t n, std::int64_t speculation_block) {
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
                     speculation_block);
  return sum_check(static_cast<const std::int32_t*>(x), flags, static_cast<const std::int32_t*>(sums),
                   offsets, n, 0);
}

verdict verify_reduce(dtype t, const void* x, const void* sum, std::int64_t n) {
  verdict v;
  v.num_segments = 1;
  if (t == dtype::i32) {
    std::uint32_t want = 0, got = 0;
    for (std::int64_t i = 0; i < n; ++i) want += static_cast<const std::uint32_t*>(x)[i];
    std::memcpy(&got, sum, 4);
    if (got != want) {
      v.max_error = 1;
      record_bad(v, 0, [&] { return "sum " + std::to_string(got) + ", expected " + std::to_string(want); });
    }
    return v;
  }
  double want = 0, scale = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    want += static_cast<const float*>(x)[i];
    scale += std::fabs(static_cast<const float*>(x)[i]);
  }
  const double got = *static_cast<const float*>(sum), bound = f32_bound(n);
  const double rel = scale > 0 ? std::fabs(got - want) / scale : std::fabs(got - want);
  v.max_error = rel;
  v.worst_ratio = rel / bound;
  if (!(rel <= bound))
    record_bad(v, 0, [&] { return "sum " + fmt(got) + ", expected " + fmt(want) + ": error " + fmt(rel) + " > bound " + fmt(bound); });
  return v;
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
