// `mmvram calibrate`: times single instructions on a timing backend over a grid of sizes (and
// s for the MMU and REVSPEC) and fits, per instruction class, t = latency + bytes / bandwidth, the
// bytes past the device's L2 size at a bandwidth of their own (+ work / rate where the class has
// work beyond its bytes); then a multi-row product per s from 2 up on the same 2^22 words, issued
// like the classes' products (the MMU shapes). Never fitted on whole algorithms.
#include "commands.hpp"
#include "output.hpp"

#include "mmvram/harness/random_inputs.hpp"
#include "mmvram/model/machine.hpp"
#include "mmvram/prediction/fit.hpp"
#include "mmvram/prediction/profile_file.hpp"
#include "mmvram/prediction/time_model.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <functional>
#include <iostream>

namespace mmv::tool {

namespace {

machine_config config_of(const calibrate_options& o, const std::string& executor, int s, number_format f) {
  machine_config c;
  c.backend = o.backend;
  c.executor = executor;
  c.s = s;
  c.format = f;
  c.word_bits = f == number_format::float64 ? 64 : 32;
  c.record_dag = false;
  c.iterated_addition_limit = 64;
  return c;
}

// Runs `issue` repeat + 1 times on `m` (the first is a warm-up) and returns the median device
// time of the instruction it records last, with that record. Interleaved (the default), two
// small instructions of other kernels run just before each issue, as in an algorithm, where an
// instruction rarely follows itself; back to back, the issues follow each other.
// With the graph executor (`chained`), each timing is instead a chain of graph_chain issues
// captured into one graph: the graph's device time divided by graph_chain (no host issue in it).
// With the dag executor the same graph_chain issues are independent (each reads only loaded
// operands), so they spread over its branch streams: the time per instruction when they overlap.
std::pair<double, instruction_record> time_one(machine& m, int repeat, bool interleaved, bool chained,
                                               const std::function<void()>& issue) {
  constexpr int graph_chain = 8;
  std::vector<std::pair<double, instruction_record>> timed;
  for (int k = 0; k <= repeat; ++k) {
    const double span_before = m.costs().span_ns();
    if (interleaved && !chained) (void)m.lane_index(256, 16), (void)m.iota(256, 0, 1, 4);
    for (int c = 0; c < (chained ? graph_chain : 1); ++c) issue();
    m.collect_timing();
    const double ns = chained ? (m.costs().span_ns() - span_before) / graph_chain : m.costs().records().back().measured_ns;
    if (k > 0) timed.emplace_back(ns, m.costs().records().back());
  }
  // The median issue, with its own sizes (interleaved MMU issues differ in shape).
  std::sort(timed.begin(), timed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return timed[timed.size() / 2];
}

// The s x s matrix of MatMulScan's products (1 on and above the diagonal): every product timed.
std::vector<word> scan_matrix(int s) {
  std::vector<word> ones(static_cast<std::size_t>(s) * s);
  for (int k = 0; k < s; ++k)
    for (int j = 0; j < s; ++j) ones[static_cast<std::size_t>(k * s + j)] = k <= j;
  return ones;
}

// The words of the k-th interleaved MMU product of a timing on m words (whole rows of s): each
// issue has another length (m, m - s, ..., m - 7s, not below 2s where m >= 2s: one row is a class
// of its own), as in an algorithm, where every MMU instruction has its own shape (not cached by
// the library; at m = 2s all are alike). Back-to-back timings issue m words every time.
std::int64_t product_words(std::int64_t m, int s, std::int64_t k) {
  const std::int64_t fewest = std::min<std::int64_t>(m, 2 * std::int64_t{s});
  return std::max(fewest, m - s * (k % 8));
}

// Receives one timing: class, m, s, and the median time with its record.
using class_recorder = std::function<void(const std::string&, std::int64_t, int, const std::pair<double, instruction_record>&)>;

// Times the product of one row (m = s words, where MatMulScan's top level ends) per tile size
// s and format: classes "mmu-word/sS/row" and "mmu-real/sS/row", a point each.
void time_one_row_products(const calibrate_options& o, const std::string& executor, bool interleaved, bool chained,
                           inputs::stream& draws, const class_recorder& record) {
  for (int s : o.mmu_s) {
    const std::vector<word> ones = scan_matrix(s);
    machine ms(config_of(o, executor, s, number_format::integer));
    const word_vec xs = ms.load<word>(inputs::bounded_words(draws, s, 1000, false), "x"), wm = ms.load<word>(ones, "w");
    record("mmu-word/s" + std::to_string(s) + one_row_suffix, s, s,
           time_one(ms, o.repeat, interleaved, chained, [&] { ms.mmu(xs, wm); }));
    machine mr(config_of(o, executor, s, number_format::float64));
    const std::vector<real> onesr(ones.begin(), ones.end());
    const real_vec xr = mr.load<real>(inputs::bounded_reals(draws, s, false, false), "x"), wr = mr.load<real>(onesr, "w");
    record("mmu-real/s" + std::to_string(s) + one_row_suffix, s, s,
           time_one(mr, o.repeat, interleaved, chained, [&] { mr.mmu(xr, wr); }));
  }
}

// Times every class over the grid of sizes on `executor`, handing each timing to `record`.
void time_classes(const calibrate_options& o, const std::string& executor, bool interleaved, bool chained,
                  inputs::stream& draws, const class_recorder& record) {
  // m = 2^8, 2^10, ..., 2^18, then every power of two: the sizes around the L2 knee.
  for (std::int64_t m = 256; m <= o.max_m; m *= m < (std::int64_t{1} << 18) ? 4 : 2) {
    const auto words = [&](word hi) { return inputs::bounded_words(draws, m, hi, false); };  // m in [0, hi]
    machine w(config_of(o, executor, 16, number_format::integer));
    const word_vec x = w.load<word>(words(1000), "x"), y = w.load<word>(words(1000), "y");
    const word_vec f = w.load<word>(words(1), "f");
    // Streaming VCU instructions of 0 to 3 operands.
    record("stream", m, 16, time_one(w, o.repeat, interleaved, chained, [&] { w.add(x, y); }));
    record("stream", m, 16, time_one(w, o.repeat, interleaved, chained, [&] { w.add(x, word{3}); }));
    record("stream", m, 16, time_one(w, o.repeat, interleaved, chained, [&] { w.select(f, x, y); }));
    record("stream", m, 16, time_one(w, o.repeat, interleaved, chained, [&] { w.broadcast(word{7}, m); }));
    record("stream", m, 16, time_one(w, o.repeat, interleaved, chained, [&] { w.shift(x, 1, word{0}); }));
    // Gather at sorted random positions (the algorithms gather per segment, monotonically).
    std::vector<word> idx = words(m - 1);
    std::sort(idx.begin(), idx.end());
    const word_vec gi = w.load<word>(idx, "idx");
    record("gather", m, 16, time_one(w, o.repeat, interleaved, chained, [&] { w.gather(x, gi); }));
    // Scatter of m/16 values at stride 16 (MatMulScan's carries), compress at density 1/32.
    const word_vec si = w.iota(m / 16, 0, 16), sv = w.gather_strided(x, 0, 16, m / 16);
    record("scatter", m, 16, time_one(w, o.repeat, interleaved, chained, [&] { w.scatter(x, si, sv); }));
    std::vector<word> mask(static_cast<std::size_t>(m)), pos(static_cast<std::size_t>(m));
    word rank = 0;
    for (std::size_t i = 0; i < mask.size(); ++i) mask[i] = draws.integer(0, 31) == 0, pos[i] = rank, rank += mask[i];
    const word_vec mk = w.load<word>(mask, "mask"), ps = w.load<word>(pos, "pos");
    record("compress", m, 16, time_one(w, o.repeat, interleaved, chained, [&] { w.compress(x, mk, ps); }));
    for (int s : o.mmu_s) {
      // m rounded down to whole rows of s (m itself for the powers of two it is a multiple of).
      const std::int64_t ms_words = m - m % s;
      // MMU and REVSPEC points need two rows at least (one row is the MMU's class of its own).
      if (ms_words < 2 * s || static_cast<double>(ms_words) * s > o.max_work) continue;
      const auto row_words = [&](word hi) { return inputs::bounded_words(draws, ms_words, hi, false); };
      machine ms(config_of(o, executor, s, number_format::integer));
      const word_vec xs = ms.load<word>(row_words(1000), "x"), fs = ms.load<word>(row_words(1), "f");
      record("revspec", ms_words, s, time_one(ms, o.repeat, interleaved, chained, [&] { ms.revspec(xs, fs); }));
      const std::vector<word> ones = scan_matrix(s);
      const word_vec wm = ms.load<word>(ones, "w");
      std::int64_t k = 0;
      record("mmu-word/s" + std::to_string(s), ms_words, s, time_one(ms, o.repeat, interleaved, chained, [&] {
               ms.mmu(interleaved ? ms.resize(xs, product_words(ms_words, s, k++), word{0}) : xs, wm);
             }));
      machine mr(config_of(o, executor, s, number_format::float64));
      const std::vector<real> xr = inputs::bounded_reals(draws, ms_words, false, false), onesr(ones.begin(), ones.end());
      const real_vec xrv = mr.load<real>(xr, "x"), wr = mr.load<real>(onesr, "w");
      k = 0;
      record("mmu-real/s" + std::to_string(s), ms_words, s, time_one(mr, o.repeat, interleaved, chained, [&] {
               mr.mmu(interleaved ? mr.resize(xrv, product_words(ms_words, s, k++), 0.0) : xrv, wr);
             }));
    }
    const std::int64_t k = std::max<std::int64_t>(2, static_cast<std::int64_t>(std::ceil(std::log2(static_cast<double>(m)))));
    record("block-prefix", m, static_cast<int>(k), time_one(w, o.repeat, interleaved, chained, [&] { w.block_prefix_sum(x, k); }));
  }
  time_one_row_products(o, executor, interleaved, chained, draws, record);
}

// Times a multi-row product of every s from 2 to the largest calibrated one, per format, on the
// same 2^22 words (at most --max-m, rounded down to whole rows of s; s skipped past the work cap),
// issued as the classes' products are (interleaved: resized before each product to the lengths of
// product_words; the point keeps the median issue's words): the profile's MMU shapes, how the
// shape of s changes a product's speed where s has no class of its own.
void time_mmu_shapes(const calibrate_options& o, bool interleaved, bool chained, inputs::stream& draws,
                     std::vector<mmu_shape_point>& shapes) {
  if (o.mmu_s.empty()) return;
  const std::int64_t words = std::min<std::int64_t>(o.max_m, std::int64_t{1} << 22);
  const std::vector<word> xw = inputs::bounded_words(draws, words, 1000, false);
  const std::vector<real> xr = inputs::bounded_reals(draws, words, false, false);
  const int largest = *std::max_element(o.mmu_s.begin(), o.mmu_s.end());
  for (int s = 2; s <= largest; ++s) {
    const std::int64_t m = words - words % s;
    if (m < 2 * s || static_cast<double>(m) * s > o.max_work) continue;  // one row is a class of its own
    const std::vector<word> ones = scan_matrix(s);
    const auto point = [&](const char* format, const std::pair<double, instruction_record>& t) {
      shapes.push_back({format, s, t.second.length, t.first});
    };
    machine ms(config_of(o, o.executor, s, number_format::integer));
    const word_vec x = ms.load<word>(std::vector<word>(xw.begin(), xw.begin() + m), "x"), w = ms.load<word>(ones, "w");
    std::int64_t k = 0;
    point("mmu-word", time_one(ms, o.repeat, interleaved, chained, [&] {
            ms.mmu(interleaved ? ms.resize(x, product_words(m, s, k++), word{0}) : x, w);
          }));
    machine mr(config_of(o, o.executor, s, number_format::float64));
    const real_vec xv = mr.load<real>(std::vector<real>(xr.begin(), xr.begin() + m), "x");
    const real_vec wv = mr.load<real>(std::vector<real>(ones.begin(), ones.end()), "w");
    k = 0;
    point("mmu-real", time_one(mr, o.repeat, interleaved, chained, [&] {
            mr.mmu(interleaved ? mr.resize(xv, product_words(m, s, k++), 0.0) : xv, wv);
          }));
    if (!o.quiet)
      std::fprintf(stderr, "calibrate shape s=%-4d word %12.1f ns (m=%lld)  real %12.1f ns (m=%lld)\n", s,
                   shapes[shapes.size() - 2].measured_ns, static_cast<long long>(shapes[shapes.size() - 2].m),
                   shapes.back().measured_ns, static_cast<long long>(shapes.back().m));
  }
}

// Graph profiles: seven instructions of different kernels (add, an MMU product, shift, gather,
// select, scatter, add of a constant) on m words, for m = 2^8, 2^12, 2^16, 2^20 (at most --max-m),
// timed as one chain taking turns and each as a chain of itself: the profile's node switches.
void time_node_switches(const calibrate_options& o, inputs::stream& draws, device_profile& p) {
  for (std::int64_t m = 256; m <= std::min<std::int64_t>(o.max_m, std::int64_t{1} << 20); m *= 16) {
    const int s = 16;
    machine w(config_of(o, o.executor, s, number_format::integer));
    const word_vec x = w.load<word>(inputs::bounded_words(draws, m, 1000, false), "x");
    const word_vec y = w.load<word>(inputs::bounded_words(draws, m, 1000, false), "y");
    const word_vec f = w.load<word>(inputs::bounded_words(draws, m, 1, false), "f");
    std::vector<word> idx = inputs::bounded_words(draws, m, m - 1, false);
    std::sort(idx.begin(), idx.end());
    const word_vec gi = w.load<word>(idx, "idx"), wm = w.load<word>(scan_matrix(s), "w");
    const word_vec si = w.iota(m / 16, 0, 16), sv = w.gather_strided(x, 0, 16, m / 16);
    const std::vector<std::function<void()>> ops = {
        [&] { (void)w.add(x, y); },        [&] { (void)w.mmu(x, wm); },    [&] { (void)w.shift(x, 1, word{0}); },
        [&] { (void)w.gather(x, gi); },    [&] { (void)w.select(f, x, y); }, [&] { (void)w.scatter(x, si, sv); },
        [&] { (void)w.add(x, word{3}); }};
    double own = 0;
    for (const auto& op : ops) own += time_one(w, o.repeat, false, true, op).first;
    const double round = time_one(w, o.repeat, false, true, [&] { for (const auto& op : ops) op(); }).first;
    const double n = static_cast<double>(ops.size());
    p.node_switches.push_back({m, round / n, own / n});
    if (!o.quiet)
      std::fprintf(stderr, "calibrate switch m=%-10lld mixed %10.1f ns  own %10.1f ns per node\n", static_cast<long long>(m),
                   round / n, own / n);
  }
}

}  // namespace

namespace {
// The table of the fitted classes, one line each.
void print_classes(const device_profile& p, const std::string& out) {
  std::printf("knee %lld bytes (fitted; L2 %lld bytes); MMU shapes %zu; node switch points %zu\n",
              static_cast<long long>(p.l2_bytes), static_cast<long long>(p.l2_cache_bytes), p.mmu_shapes.size(),
              p.node_switches.size());
  std::printf("%-25s %12s %14s %14s %6s %14s %10s %10s %6s %10s\n", "class", "latency_us", "bandwidth_GB/s", "past_knee_GB/s",
              "knee", "rate_Gop/s", "resid_med", "resid_max", "points", "host_us");
  for (const auto& [cls, m] : p.classes)
    std::printf("%-25s %12.2f %14.1f %14.1f %6s %14.1f %10.3f %10.3f %6d %10.2f\n", escaped(cls).c_str(), m.latency_ns / 1e3,
                m.ns_per_byte > 0 ? 1.0 / m.ns_per_byte : 0.0,
                m.ns_per_byte_beyond_l2 > 0 ? 1.0 / m.ns_per_byte_beyond_l2 : 0.0, m.step_at_knee ? "step" : "hinge",
                m.ns_per_op > 0 ? 1.0 / m.ns_per_op : 0.0,
                m.residual_median, m.residual_max, m.points, m.host_ns / 1e3);
  std::printf("profile written to %s\n", escaped(out).c_str());
}
}  // namespace

int command_calibrate(const calibrate_options& o) {
  if (!o.refit.empty()) {  // fit again on the stored single-instruction timings, no device needed
    device_profile p = read_profile(o.refit);
    if (o.l2_bytes >= 0) p.l2_cache_bytes = p.l2_bytes = o.l2_bytes;
    fit_profile(p, p.points);
    write_profile(o.out, p);
    print_classes(p, o.out);
    return 0;
  }
  device_profile p;
  p.backend = o.backend;
  p.device = o.device_name;
  // graph: every instruction timed inside captured graphs, back to back (device-only constants).
  const bool chained = o.executor == "graph", interleaved = o.interleaved && !chained;
  p.context = chained ? "graph" : interleaved ? "interleaved" : "back-to-back";
  p.sm_clock_mhz = o.sm_clock_mhz, p.memory_clock_mhz = o.memory_clock_mhz;
  p.l2_cache_bytes = p.l2_bytes = std::max<std::int64_t>(o.l2_bytes, 0);
  const std::time_t now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
  p.date = date;
  inputs::stream draws(o.seed);  // every operand drawn in order from one stream of --seed
  std::map<std::string, std::vector<training_point>> by_class;
  const auto record = [&](const std::string& cls, std::int64_t m, int s, const std::pair<double, instruction_record>& t) {
    training_point pt{cls, t.second.op, m, s, record_bytes(t.second, p.bytes_per_word), class_work(t.second), t.first, 0,
                      t.second.host_ns};
    by_class[cls].push_back(pt);
    if (!o.quiet) std::fprintf(stderr, "calibrate %-12s %-10s m=%-10lld s=%-4d %12.1f ns\n", cls.c_str(), pt.op.c_str(),
                               static_cast<long long>(m), s, t.first);
  };

  time_classes(o, o.executor, interleaved, chained, draws, record);
  time_mmu_shapes(o, interleaved, chained, draws, p.mmu_shapes);
  if (chained) time_node_switches(o, draws, p);
  // A graph profile also holds each class timed with its instructions overlapping on the dag
  // executor's branches ("concurrent:" classes): what a run on that executor cannot go below.
  if (chained)
    time_classes(o, "dag", false, true, draws, [&](const std::string& cls, std::int64_t m, int s,
                                                             const std::pair<double, instruction_record>& t) {
      record(concurrent_class_prefix + cls, m, s, t);
    });

  std::vector<training_point> points;
  for (auto& [cls, pts] : by_class) points.insert(points.end(), pts.begin(), pts.end());
  fit_profile(p, std::move(points));
  write_profile(o.out, p);
  print_classes(p, o.out);
  return 0;
}

}  // namespace mmv::tool
