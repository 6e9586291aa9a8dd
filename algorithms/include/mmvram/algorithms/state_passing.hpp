// The multi-lane decayed segmented scan of chunkwise linear RNNs (inter-chunk state passing):
// for chunks j < G, heads h < H, state rows r < N, columns c < V,
//   h_j[h,r,c] = exp(l_j[h,r]) · h_{j−1}[h,r,c] + u_j[h,r,c],   h_{j−1} := 0 at flagged chunks,
// with one log-decay per (chunk, head, row) or per (chunk, head) (docs/algorithms/state_passing.md).
#pragma once
#include "mmvram/algorithms/common.hpp"

#include <cstdint>

namespace mmv {

// H heads of N x V states; per_head: one log-decay per head (shared by its N·V lanes),
// otherwise one per state row (shared by its V lanes).
struct state_shape {
  std::int64_t heads = 2, rows = 4, cols = 8;
  bool per_head = false;
  std::int64_t decay_rows() const { return per_head ? heads : heads * rows; }   // D
  std::int64_t lanes_per_decay() const { return per_head ? rows * cols : cols; }  // K
  std::int64_t lanes() const { return heads * rows * cols; }                       // D·K
};

// u: [G][H][N][V] chunk-major, l: [G][H][N] (or [G][H] per head) log-decays <= 0, f: G flags
// 0/1 (chunk 0 always starts a sequence). Returns h, laid out like u. The decay work (segsum,
// exp, in-block prefixes, carries' decays) is done once per decay row and applied to its K
// lanes; O(log_s G) steps. Throws model_error on inconsistent lengths or flags not 0/1.
real_vec state_passing_scan(machine& m, const real_vec& u, const real_vec& l, const word_vec& f, const state_shape& shape);

// Exact ledger counts of state_passing_scan on G chunks of H x N x V lanes with tile size s
// (inputs loaded, at depth 0). G >= 0, H, N, V >= 1, s >= 2.
cost_prediction state_passing_predicted_cost(std::int64_t G, std::int64_t H, std::int64_t N, std::int64_t V, bool per_head,
                                             int s);

}  // namespace mmv
