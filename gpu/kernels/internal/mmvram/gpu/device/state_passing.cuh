// Device layer of the state propagation (state_passing.hpp): the scan kernel (one warp per lane
// group and segment or sequence, agent/state_passing), the CUDA-core split chain's kernel
// (agent/state_passing_split), the two steps that cut the chunks into segments for the other
// methods (segment totals, then the carries into the segments) and the final states.
#pragma once
#include <cstdint>

#include "mmvram/gpu/agent/state_passing.cuh"
#include "mmvram/gpu/agent/state_passing_split.cuh"

namespace mmv::gpu::device {

// states[j][lane] for the block's segment (blockIdx.y; p.segment_chunks > 0: carries from
// segment_decay) or sequence (p.chunk_offsets), scanned by Scan (agent::serial_scan<> or
// agent::mma_scan). Grid: ceil(lane_groups / kStateWarpsPerBlock) × segments or sequences.
template <class Scan, bool ExactData, class In, class Real>
__global__ void __launch_bounds__(32 * agent::kStateWarpsPerBlock)
    state_passing_kernel(agent::state_passing_params<In, Real> p) {
  __shared__ float smem[agent::kStateWarpsPerBlock][warp::kTileChunks * warp::kSmemRowStride];
  const std::int64_t group = std::int64_t(blockIdx.x) * agent::kStateWarpsPerBlock + threadIdx.x / 32;
  if (group >= p.lane_groups) return;
  agent::state_passing_agent<ExactData, In, Real>(p, group).template states<Scan>(smem[threadIdx.x / 32]);
}

// The split chain (agent/state_passing_split.cuh): block b holds lane group b % lane_groups and
// span b / lane_groups of kStateWarpsPerBlock segments of K·16 chunks, a warp a segment; a span's
// look-back waits only on blocks of lower index, which the block scheduler starts first (as
// CUB's single-pass scan assumes; docs/state_passing.md, "Segment order").
template <int K, int MinBlocks, class In>
__global__ void __launch_bounds__(32 * agent::kStateWarpsPerBlock, MinBlocks)
    state_passing_split_kernel(agent::state_passing_params<In, float> p) {
  using split = agent::state_passing_split_agent<K, agent::kStateWarpsPerBlock, In>;
  __shared__ typename split::shared s;
  split(p, blockIdx.x % p.lane_groups, blockIdx.x / p.lane_groups, s).run();
}

// Each segment's (decay product or −1, end state from a zero carry) per lane into
// p.segment_decay and p.segment_state. Grid as state_passing_kernel's, one row per segment.
template <class In, class Real>
__global__ void __launch_bounds__(32 * agent::kStateWarpsPerBlock)
    segment_totals_kernel(agent::state_passing_params<In, Real> p) {
  const std::int64_t group = std::int64_t(blockIdx.x) * agent::kStateWarpsPerBlock + threadIdx.x / 32;
  if (group >= p.lane_groups) return;
  agent::state_passing_agent<false, In, Real>(p, group).segment_totals();
}

// Per lane, the carries into the segments: carry_0 = 0, carry_{s+1} = decay_s · carry_s + state_s,
// or state_s where a start cut segment s (no 0 × inf) (written over segment_decay).
template <class Real>
__global__ void segment_carries_kernel(Real* segment_decay, const Real* segment_state, std::int64_t segments,
                                       std::int64_t lanes) {
  const std::int64_t lane = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (lane >= lanes) return;
  Real carry = 0;
  for (std::int64_t s = 0; s < segments; ++s) {
    const Real a = segment_decay[s * lanes + lane], b = segment_state[s * lanes + lane];
    segment_decay[s * lanes + lane] = carry;
    carry = a < 0 ? b : a * carry + b;
  }
}

// finals[k][lane]: the state after sequence k's last chunk (0 if it has none), advanced over the
// partial tail chunk when tail_local is set: exp(tail_log_decay) · h + tail_local.
static __global__ void finals_kernel(const float* states, const std::int64_t* offsets, std::int64_t sequences,
                                     const float* tail_local, const float* tail_log_decay, float* finals,
                                     std::int64_t lanes, std::int64_t lanes_per_head, int cols, int decay_rows,
                                     bool per_row) {
  const std::int64_t t = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= sequences * lanes) return;
  const std::int64_t k = t / lanes, lane = t % lanes, last = offsets[k + 1] - 1;
  float h = last >= offsets[k] ? states[last * lanes + lane] : 0.f;
  if (tail_local != nullptr) {
    const std::int64_t head = lane / lanes_per_head, row = per_row ? lane % lanes_per_head / cols : 0;
    h = expf(tail_log_decay[(k * (lanes / lanes_per_head) + head) * decay_rows + row]) * h + tail_local[t];
  }
  finals[t] = h;
}

}  // namespace mmv::gpu::device
