// SCD = DIFF o COMPRESS o SCAN: the segmented sum from one speculative (unsegmented) MatMulScan.
// Also the COMPRESS o (SCAN x, SCAN f) front end that SSCR shares. Phases (n values, k segments,
// S(n) = matmul_scan's cost on n values):
//   1 flags     f1 = f with f[0] := 1 (select, validates f)       2 VCU steps, work 2n
//   2 scan-x    x_hat = SCAN(x)                                   S(n)
//   3 scan-f    f_hat = SCAN(f1), independent of phase 2          S(n)
//   4 compress  ends = f shifted left (last := 1),
//               w = COMPRESS(x_hat, ends, f_hat - 1)              3 VCU steps, work 2n + k
//   5 diff      out = w - shift(w, 1, 0)                          2 VCU steps, work 2k
#include "mmvram/algorithms/segmented.hpp"

#include "mmvram/algorithms/scan.hpp"

#include <string>
#include <vector>

namespace mmv {

namespace detail {

template <class T>
speculated_segments<T> speculate_and_compress(machine& m, const vec<T>& x, const word_vec& f,
                                              const char* caller) {
  const std::int64_t n = x.size();
  if (f.size() != n)
    throw model_error(std::string(caller) + ": values and flags differ in length (" + std::to_string(n) +
                      " vs " + std::to_string(f.size()) + ")");
  word_vec f1;
  {  // Phase 1: position 0 starts a segment. select(f, f, e0) = f OR e0, and rejects flags not 0/1.
    auto g = m.region("flags");
    const word_vec e0 = m.resize(m.load<word>(std::vector<word>{1}, "const:one"), n, word{0});
    f1 = m.select(f, f, e0);
  }
  speculated_segments<T> r;
  {  // Phase 2: the speculative scan of the values.
    auto g = m.region("scan-x");
    r.x_hat = matmul_scan(m, x);
  }
  word_vec f_hat;
  {  // Phase 3: the scan of the flags numbers the segments 1, 2, ...
    auto g = m.region("scan-f");
    f_hat = matmul_scan(m, f1);
  }
  {  // Phase 4: the last position of segment j has rank j among the segment ends.
    auto g = m.region("compress");
    const word_vec ends = m.shift(f, -1, word{1});
    r.segment = m.sub(f_hat, word{1});
    r.ends = m.compress(r.x_hat, ends, r.segment);
  }
  return r;
}

template speculated_segments<word> speculate_and_compress(machine&, const vec<word>&, const word_vec&, const char*);
template speculated_segments<real> speculate_and_compress(machine&, const vec<real>&, const word_vec&, const char*);

}  // namespace detail

template <class T>
vec<T> scd_segmented_sum(machine& m, const vec<T>& x, const word_vec& f) {
  auto g = m.region("scd");
  if (x.size() == 0 && f.size() == 0) return vec<T>();
  const auto spec = detail::speculate_and_compress(m, x, f, "scd_segmented_sum");
  // Phase 5: DIFF. Segment j's sum is x_hat at its end minus x_hat at the previous segment's end.
  auto h = m.region("diff");
  return m.sub(spec.ends, m.shift(spec.ends, 1, T{0}));
}

template vec<word> scd_segmented_sum(machine&, const vec<word>&, const word_vec&);
template vec<real> scd_segmented_sum(machine&, const vec<real>&, const word_vec&);

cost_prediction scd_predicted_cost(std::int64_t n, int s, std::int64_t segments) {
  if (n < 0 || s < 2 || segments < 0 || segments > n || (n > 0 && segments < 1))
    throw model_error("scd_predicted_cost: need n >= 0, s >= 2 and 1 <= segments <= n");
  cost_prediction p;
  p.formula = "2 S(n) + 7 VCU steps; depth D_S(n) + 6; VCU work 2 W_S(n) + 4n + 3k "
              "(S = matmul_scan, k = segments)";
  if (n == 0) return p;
  const cost_prediction scan = matmul_scan_predicted_cost(n, s);
  p.mmu_steps = 2 * scan.mmu_steps;
  p.vcu_steps = 2 * scan.vcu_steps + 7;
  p.depth = scan.depth + 6;  // e0, select, SCAN(f), f_hat - 1, compress, shift, sub
  p.tile_products = 2 * scan.tile_products;
  p.multiply_adds = 2 * scan.multiply_adds;
  p.vcu_work = 2 * scan.vcu_work + 4 * n + 3 * segments;
  return p;
}

cost_prediction scd_predicted_cost(std::int64_t n, int s) { return scd_predicted_cost(n, s, n > 0 ? 1 : 0); }

}  // namespace mmv
