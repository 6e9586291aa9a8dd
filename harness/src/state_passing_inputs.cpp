// State-passing problems and their float64 recurrence (state_passing_inputs.hpp).
#include "mmvram/harness/state_passing_inputs.hpp"

#include "mmvram/harness/random_inputs.hpp"
#include "mmvram/harness/reference.hpp"

#include <algorithm>
#include <cmath>

namespace mmv::inputs {

namespace {

// The streams of a problem's arrays, each keyed by the seed and a tag of its own.
constexpr std::uint64_t kLocalTag = 0x6c6f63616cull, kDecayTag = 0x6465636179ull, kStartTag = 0x7374617274ull,
                        kLengthTag = 0x6c656e677468ull;

// An empty problem of `chunks` chunks of shape s, local states and log-decays drawn: local value
// i from draws 12 i .. 12 i + 11 (normal_sum12, filled in parallel), log-decay i from draws
// 2 i (0 when below 0.1) and 2 i + 1 (-unit otherwise).
state_passing_problem drawn_values(std::int64_t chunks, const state_shape& s, std::uint64_t seed) {
  state_passing_problem p;
  p.chunks = chunks;
  p.lanes_shape = s;
  p.local.resize(static_cast<std::size_t>(chunks * s.lanes()));
  const std::uint64_t local_key = mix64(seed ^ kLocalTag);
  parallel_for(static_cast<std::int64_t>(p.local.size()), [&](std::int64_t b, std::int64_t e) {
    stream d(local_key);
    d.skip(12 * static_cast<std::uint64_t>(b));
    for (std::int64_t i = b; i < e; ++i) p.local[static_cast<std::size_t>(i)] = normal_sum12(d);
  });
  p.log_decay.resize(static_cast<std::size_t>(chunks * s.decay_rows()));
  stream d(mix64(seed ^ kDecayTag));
  for (auto& l : p.log_decay) {
    const bool one = d.unit() < 0.1;
    const double u = d.unit();
    l = one ? 0.0 : -u;
  }
  return p;
}

}  // namespace

state_passing_problem random_state_passing(std::int64_t chunks, const state_shape& s, double start_rate,
                                           std::uint64_t seed) {
  state_passing_problem p = drawn_values(chunks, s, seed);
  p.starts.resize(static_cast<std::size_t>(chunks));
  stream d(mix64(seed ^ kStartTag));
  bernoulli_flags(d, p.starts.data(), chunks, start_rate);
  return p;
}

std::vector<std::int64_t> lognormal_chunk_offsets(int sequences, double mu, double sigma, int chunk_tokens,
                                                  std::uint64_t seed) {
  stream d(mix64(seed ^ kLengthTag));
  std::vector<std::int64_t> offsets{0};
  for (int k = 0; k < sequences; ++k) {
    const auto tokens = std::max<std::int64_t>(1, std::llround(std::exp(mu + sigma * normal_sum12(d))));
    offsets.push_back(offsets.back() + (tokens + chunk_tokens - 1) / chunk_tokens);
  }
  return offsets;
}

state_passing_problem packed_state_passing(const std::vector<std::int64_t>& offsets, const state_shape& s,
                                           std::uint64_t seed) {
  state_passing_problem p = drawn_values(offsets.empty() ? 0 : offsets.back(), s, seed);
  p.starts.assign(static_cast<std::size_t>(p.chunks), 0);
  for (std::size_t k = 0; k + 1 < offsets.size(); ++k)
    if (offsets[k] < p.chunks) p.starts[static_cast<std::size_t>(offsets[k])] = 1;
  return p;
}

lane_states state_passing_lane(const state_passing_problem& p, std::int64_t lane, bool segmented) {
  const state_shape& s = p.lanes_shape;
  const std::int64_t lanes = p.lanes(), decay_row = lane / s.lanes_per_decay();
  lane_states r;
  r.h.resize(static_cast<std::size_t>(p.chunks));
  r.bound.resize(r.h.size());
  r.unsegmented.resize(r.h.size());
  reference::exact_sum carry;  // h exact but for one rounding per step of exp and of the sum
  double carry_abs = 0, unseg_abs = 0;
  for (std::int64_t j = 0; j < p.chunks; ++j) {
    const double decay = std::exp(p.log_decay[static_cast<std::size_t>(j * s.decay_rows() + decay_row)]);
    const double u = p.local[static_cast<std::size_t>(j * lanes + lane)];
    const bool restart = segmented && p.starts[static_cast<std::size_t>(j)];
    if (restart) carry = {};  // not 0 * carry: an inf must not cross a start
    else carry.scale(decay);
    carry.add(u);
    carry_abs = restart ? std::fabs(u) : decay * carry_abs + std::fabs(u);
    unseg_abs = decay * unseg_abs + std::fabs(u);
    r.h[static_cast<std::size_t>(j)] = carry.value();
    r.bound[static_cast<std::size_t>(j)] = carry_abs;
    r.unsegmented[static_cast<std::size_t>(j)] = unseg_abs;
  }
  return r;
}

void state_passing_reference(const state_passing_problem& p, std::vector<double>& h, std::vector<double>& bound,
                             std::vector<double>* unsegmented) {
  const std::int64_t lanes = p.lanes();
  h.assign(p.local.size(), 0.0);
  bound.assign(p.local.size(), 0.0);
  if (unsegmented) unsegmented->assign(p.local.size(), 0.0);
  for (std::int64_t x = 0; x < lanes; ++x) {
    const lane_states r = state_passing_lane(p, x);
    for (std::int64_t j = 0; j < p.chunks; ++j) {
      const auto i = static_cast<std::size_t>(j * lanes + x);
      h[i] = r.h[static_cast<std::size_t>(j)];
      bound[i] = r.bound[static_cast<std::size_t>(j)];
      if (unsegmented) (*unsegmented)[i] = r.unsegmented[static_cast<std::size_t>(j)];
    }
  }
}

}  // namespace mmv::inputs
