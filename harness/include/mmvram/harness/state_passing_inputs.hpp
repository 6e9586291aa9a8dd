// State-passing problems (the inter-chunk recurrence of chunkwise linear RNNs,
// docs/state_passing.md) for the simulator and the kernels' checks: random problems (`mmvram run
// state-passing`, `mmvram kernels stress`, the GPU tests), packed batches of LogNormal-length
// sequences (`mmvram kernels state-passing`), and the float64 recurrence they are compared with.
// Drawn from the one generator (random_inputs.hpp): a seed gives the same problem on every
// platform (the batch's sequence lengths wherever std::exp rounds alike).
#pragma once
#include "mmvram/algorithms/state_passing.hpp"

#include <cstdint>
#include <vector>

namespace mmv::inputs {

// G chunks of H x N x V lanes, chunk-major like the kernels' and the simulator's arrays: local
// [G][H][N][V], log_decay [G][H][N] (or [G][H] when lanes_shape.per_head), starts [G] 0/1.
struct state_passing_problem {
  std::int64_t chunks = 0;
  state_shape lanes_shape;
  std::vector<double> local, log_decay;
  std::vector<std::uint8_t> starts;
  std::int64_t lanes() const { return lanes_shape.lanes(); }
};

// G chunks of shape s: local states about N(0, 1) (normal_sum12), log-decays uniform in (-1, 0]
// with one in ten exactly 0 (decay 1), chunk 0 a start and every other chunk one with
// probability start_rate (bernoulli_flags). Arrays drawn from streams keyed by seed.
state_passing_problem random_state_passing(std::int64_t chunks, const state_shape& s, double start_rate,
                                           std::uint64_t seed);

// The chunk offsets of a packed batch: sequence k's token count is max(1, round(exp(mu + sigma
// z_k))) (LogNormal(mu, sigma), z_k = normal_sum12), cut into ceil(tokens / chunk_tokens)
// chunks; offsets[0] = 0, offsets[sequences] = G. chunk_tokens >= 1.
std::vector<std::int64_t> lognormal_chunk_offsets(int sequences, double mu, double sigma, int chunk_tokens,
                                                  std::uint64_t seed);

// The packed batch of those sequences: offsets.back() chunks of shape s, a start at every
// sequence's first chunk, local states and log-decays drawn as random_state_passing's.
state_passing_problem packed_state_passing(const std::vector<std::int64_t>& offsets, const state_shape& s,
                                           std::uint64_t seed);

// One lane's float64 recurrence h_j = exp(l_j) h_{j-1} + u_j (restarted at the starts, or never
// when !segmented; h carried as a reference::exact_sum, as reference::decayed_scan carries it),
// the same on |u| with the same restarts (bound: the scale of rounding error) and on |u|
// without restarts (unsegmented: what the speculative repair subtracts from). The one reference
// of state passing: the simulator's runner and the kernels' checks both use it.
struct lane_states {
  std::vector<double> h, bound, unsegmented;  // one value per chunk
};
lane_states state_passing_lane(const state_passing_problem& p, std::int64_t lane, bool segmented = true);

// state_passing_lane of every lane, laid out like p.local (unsegmented only when asked for).
void state_passing_reference(const state_passing_problem& p, std::vector<double>& h, std::vector<double>& bound,
                             std::vector<double>* unsegmented = nullptr);

}  // namespace mmv::inputs
