// The parallel walk of the kernels' checks (kernel_reference.cpp): the array cut into chunks
// walked in parallel by the one segmented accumulation (reference.hpp: walk_segments), each
// chunk entering with the open segment's running sum carried over the chunks before it, so the
// reference at every item is the sequential reference's, in bounded memory (no copies of x or
// the flags). Segments cut by chunk boundaries are joined in order before they are judged.
#pragma once
#include "mmvram/harness/kernel_reference.hpp"
#include "mmvram/harness/reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

namespace mmv::kernel_reference {

// What a result is measured against (walk()): own = the sum of |x| over its segment up to it;
// head = the sum of |x| over its segment start's block before the start (0 without blocks);
// single = the result is its segment's first item alone.
struct scale {
  double own = 0, head = 0;
  bool single = false;
};

// The part of one segment that lies inside one chunk, with what the checks accumulate over it;
// V is the reference's type (double for f32, int32 for i32).
template <class V>
struct run_stats {
  std::int64_t start = -1, len = 0;
  double err2 = 0, raw2 = 0, ref2 = 0;  // f32 scans: errors beyond V3's bound, whole errors, reference
  V total{};                            // the reference at the last item: the segment's sum once closed
  scale last;                           // walk()'s scale at the last item
  void join(const run_stats& o) {
    if (o.len > 0) last = o.last, total = o.total;
    len += o.len;
    err2 += o.err2;
    raw2 += o.raw2;
    ref2 += o.ref2;
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

// Folds a chunk's verdict into the whole one: counts added, maxima kept, the first failure kept.
void merge(verdict& into, const verdict& from);

// Runs task(0) ... task(count - 1) on up to hardware_concurrency() threads (at most 64).
void parallel_tasks(std::int64_t count, const std::function<void(std::int64_t)>& task);

inline double magnitude(float v) { return std::fabs(static_cast<double>(v)); }
inline double magnitude(std::int32_t) { return 0; }

// Walks [0, n): visit(i, x_i, ref_i, run, chunk_verdict, sc) per element, with ref_i the
// reference inclusive segmented prefix (reference::running_sum<T>'s value) and sc its scale
// (struct scale; head over `block`-item blocks, 0 when block == 0, that start where i + phase is a
// multiple of block: a kernel's tile grid shifted by `phase` items); close(segment_index, run,
// verdict) once per segment, run.total its sum. Segments start where starts_segment says.
template <class T, class Visit, class Close>
verdict walk(const T* x, const std::uint8_t* flags, std::int64_t n, std::int64_t block, std::int64_t phase,
             Visit visit, Close close) {
  using sum = reference::running_sum<T>;
  using stats = run_stats<typename sum::value_type>;
  struct chunk {
    std::int64_t heads = 0, last_head = -1;  // segment starts in the chunk, and the last of them
    // Segments before the chunk, its last segment, the start open at its first item.
    std::int64_t seg0 = 0, last_seg = -1, open_start = 0;
    // The open segment's sum over the chunk's tail (from its last start, or all of it), and before it.
    sum tail, carry;
    double tail_abs = 0, carry_abs = 0;  // the same, of |x|
    stats first, last;
    verdict v;
  };
  const std::int64_t count = std::clamp<std::int64_t>(n / 65536, 1, 512);
  std::vector<chunk> c(static_cast<std::size_t>(count));
  auto lo = [&](std::int64_t k) { return n * k / count; };
  auto block_start = [&](std::int64_t i) { return std::max<std::int64_t>(0, (i + phase) / block * block - phase); };
  auto abs_sum = [&](std::int64_t from, std::int64_t to) {  // sum of |x| over [from, to)
    double b = 0;
    for (std::int64_t j = from; j < to; ++j) b += magnitude(x[j]);
    return b;
  };
  parallel_tasks(count, [&](std::int64_t k) {
    chunk& ck = c[k];
    for (std::int64_t i = lo(k); i < lo(k + 1); ++i)
      if (reference::starts_segment(flags, i)) ++ck.heads, ck.last_head = i;
    const std::int64_t from = ck.heads > 0 ? ck.last_head : lo(k);
    reference::walk_segments(x, flags, from, lo(k + 1), ck.tail, [](std::int64_t, bool, const sum&) {});
    ck.tail_abs = abs_sum(from, lo(k + 1));
  });
  sum carry;
  double carry_abs = 0;
  std::int64_t segs = 0, open_start = 0;
  for (chunk& ck : c) {
    ck.carry = carry;
    ck.carry_abs = carry_abs;
    ck.seg0 = segs;
    ck.open_start = open_start;
    if (ck.heads > 0) carry = ck.tail, carry_abs = ck.tail_abs, open_start = ck.last_head;
    else carry.add(ck.tail), carry_abs += ck.tail_abs;
    segs += ck.heads;
  }
  parallel_tasks(count, [&](std::int64_t k) {
    chunk& ck = c[k];
    sum acc = ck.carry;
    std::int64_t seg = ck.seg0 - 1;
    stats cur;
    bool first = true;
    scale sc{ck.carry_abs, 0.0, false};
    // blk: sum of |x| over i's block before i; sc.head: the open segment's start block before it.
    double blk = 0;
    if (block > 0) {
      blk = abs_sum(block_start(lo(k)), lo(k));
      sc.head = abs_sum(block_start(ck.open_start), ck.open_start);
    }
    reference::walk_segments(x, flags, lo(k), lo(k + 1), acc, [&](std::int64_t i, bool starts, const sum& ref) {
      if (block > 0 && (i + phase) % block == 0) blk = 0;
      sc.single = starts;
      if (starts) {
        if (first) ck.first = cur;
        else close(seg, cur, ck.v);
        first = false;
        ++seg;
        cur = stats{};
        cur.start = i;
        sc.own = magnitude(x[i]);
        sc.head = blk;
      } else {
        sc.own += magnitude(x[i]);
      }
      if (block > 0) blk += magnitude(x[i]);
      ++cur.len;
      cur.total = ref.value();
      cur.last = sc;
      visit(i, x[i], cur.total, cur, ck.v, sc);
    });
    if (first) {
      ck.first = cur;
    } else {
      ck.last = cur;
      ck.last_seg = seg;
    }
  });
  verdict v;
  stats open;
  std::int64_t open_seg = -1;
  for (chunk& ck : c) {
    if (open_seg >= 0) open.join(ck.first);
    if (ck.heads > 0) {
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

}  // namespace mmv::kernel_reference
