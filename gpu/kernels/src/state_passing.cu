// Kernels and host entry points of the inter-chunk state propagation (state_passing.hpp): one
// warp per 32 lanes of one decay row and one segment of chunks, walking it 16 chunks at a time
// (the next tile's local states loaded before the current tile's scan) with the in-tile scan of
// warp/decayed_tile.cuh. When the lanes give fewer warps than SMs, the chunks are cut into
// segments, reduce-then-scan: each segment's (decay product, end state) with a zero
// carry, a serial scan of those per lane, then every segment scanned from its carry.
#include <algorithm>
#include <string>

#include "launch.hpp"
#include "mmvram/gpu/state_passing.hpp"
#include "mmvram/gpu/warp/decayed_tile.cuh"

namespace mmv::gpu {
namespace {

using warp::kSmemRowStride;
using warp::kTileChunks;
constexpr int kWarpsPerBlock = 4;

__device__ __forceinline__ float load_value(const float* p) { return *p; }
__device__ __forceinline__ double load_value(const double* p) { return *p; }
__device__ __forceinline__ float load_value(const std::uint16_t* p) { return __uint_as_float(std::uint32_t(*p) << 16); }

template <class In, class Real>
struct params {
  const In* local;
  const Real* log_decay;
  const std::uint8_t* starts;          // nullptr: none
  const std::int64_t* chunk_offsets;   // per-sequence grid (blockIdx.y = sequence), else nullptr
  Real* states;
  Real *segment_decay, *segment_state;  // [segments][lanes]: aggregates, then carries in segment_decay
  std::int64_t chunks, lanes_per_head, lane_groups, chunk_stride, head_stride;
  std::int64_t segment_chunks;          // 0: one segment
  int cols;
  bool per_row;
};

template <class In, class Real>
__device__ __forceinline__ void load_tile(const params<In, Real>& p, std::int64_t j0, std::int64_t end,
                                          std::int64_t base, std::int64_t row_stride, Real (&v)[kTileChunks]) {
#pragma unroll
  for (int i = 0; i < kTileChunks; ++i) v[i] = j0 + i < end ? Real(load_value(p.local + (j0 + i) * row_stride + base)) : Real(0);
}

// Method: 0 CUDA cores, 1 tensor cores (masked decay matrix), 2 tensor cores speculative;
// -1: the segment aggregates only (decay product, or −1 where a start cuts the segment; end state
// from a zero carry).
template <int Method, bool ExactData, class In, class Real>
__global__ void __launch_bounds__(32 * kWarpsPerBlock) state_passing_kernel(params<In, Real> p) {
  __shared__ float smem[kWarpsPerBlock][kTileChunks * kSmemRowStride];
  const int lane = threadIdx.x % 32, warp_in_block = threadIdx.x / 32;
  const std::int64_t group = std::int64_t(blockIdx.x) * kWarpsPerBlock + warp_in_block;
  if (group >= p.lane_groups) return;
  const std::int64_t head = group * 32 / p.lanes_per_head, x0 = group * 32 % p.lanes_per_head;
  const std::int64_t row_stride = p.lane_groups * 32, base = group * 32 + lane;
  const Real* decay = p.log_decay + head * p.head_stride + (p.per_row ? x0 / p.cols : 0);
  std::int64_t begin = 0, end = p.chunks;
  if (p.chunk_offsets != nullptr) {
    begin = p.chunk_offsets[blockIdx.y];
    end = p.chunk_offsets[blockIdx.y + 1];
  } else if (p.segment_chunks > 0) {
    begin = blockIdx.y * p.segment_chunks;
    end = begin + p.segment_chunks < p.chunks ? begin + p.segment_chunks : p.chunks;
  }
  const std::int64_t slot = blockIdx.y * row_stride + base;
  Real carry = Method >= 0 && p.segment_chunks > 0 && blockIdx.y > 0 ? p.segment_decay[slot] : Real(0);
  Real decay_sum = 0, v[kTileChunks], next[kTileChunks], l[kTileChunks];
  bool restarted = false;
  if (begin < end) load_tile(p, begin, end, base, row_stride, next);
  for (std::int64_t j0 = begin; j0 < end; j0 += kTileChunks) {
#pragma unroll
    for (int i = 0; i < kTileChunks; ++i) v[i] = next[i];
    if (j0 + kTileChunks < end) load_tile(p, j0 + kTileChunks, end, base, row_stride, next);
    const bool mine = lane < kTileChunks && j0 + lane < end;
    const Real my_l = mine ? decay[(j0 + lane) * p.chunk_stride] : Real(0);
    const bool my_start = mine && p.starts != nullptr && p.starts[j0 + lane] != 0;
    const std::uint32_t starts = __ballot_sync(0xffffffffu, my_start);
#pragma unroll
    for (int i = 0; i < kTileChunks; ++i) l[i] = __shfl_sync(0xffffffffu, my_l, i);
    if constexpr (Method < 0) {
      warp::serial_decayed_scan(v, l, starts, carry);
      restarted = restarted || starts != 0;
#pragma unroll
      for (int i = 0; i < kTileChunks; ++i) decay_sum += l[i];
    } else {
      if constexpr (Method == 0) warp::serial_decayed_scan(v, l, starts, carry);
      else warp::mma_decayed_scan<Method == 2, ExactData>(v, l, starts, carry, smem[warp_in_block]);
#pragma unroll
      for (int i = 0; i < kTileChunks; ++i)
        if (j0 + i < end) p.states[(j0 + i) * row_stride + base] = v[i];
    }
  }
  if constexpr (Method < 0) {
    p.segment_decay[slot] = restarted ? Real(-1) : warp::exp_of(decay_sum);
    p.segment_state[slot] = carry;
  }
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

__global__ void finals_kernel(const float* states, const std::int64_t* offsets, std::int64_t sequences,
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

void require(bool ok, const std::string& what) {
  if (!ok) throw cuda_error("mmvram gpu state_passing: " + what);
}

void check_shape(const state_passing_shape& s) {
  require(s.chunks >= 0 && s.heads >= 1 && s.rows >= 1 && s.cols >= 1, "chunks >= 0 and heads, rows, cols >= 1");
  require(std::int64_t(s.heads) * s.rows <= (std::int64_t{1} << 31) &&
              std::int64_t(s.heads) * s.rows * s.cols <= (std::int64_t{1} << 31),
          "more than 2^31 lanes");
  if (s.decay == decay_layout::per_row) require(s.cols % 32 == 0, "per-row decays need cols % 32 == 0");
  else require(std::int64_t(s.rows) * s.cols % 32 == 0, "per-head decays need rows * cols % 32 == 0");
}

template <class In, class Real>
params<In, Real> make_params(const In* local, const Real* log_decay, const std::uint8_t* starts,
                             const std::int64_t* offsets, Real* states, const state_passing_shape& s) {
  check_shape(s);
  const std::int64_t per_head = std::int64_t(s.rows) * s.cols;
  require(s.chunks == 0 || (local && log_decay && states), "null local, log_decay or states");
  return {local, log_decay, starts, offsets, states, nullptr, nullptr, s.chunks, per_head, per_head * s.heads / 32,
          s.chunk_stride, s.head_stride, 0, s.cols, s.decay == decay_layout::per_row};
}

// Segments of whole tiles when the lanes give fewer warps than SMs (two waves of resident warps),
// else 0 (one chain per lane group). At the MVE's 1024 lane groups cutting was slower on an H100
// (its extra read of the local states and per-call allocation cost more than the parallelism).
template <class Kernel>
std::int64_t segment_chunks_for(Kernel kernel, std::int64_t lane_groups, std::int64_t chunks) {
  int dev = 0, sms = 0, blocks_per_sm = 0;
  detail::check(cudaGetDevice(&dev), "cudaGetDevice");
  detail::check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), "cudaDeviceGetAttribute");
  if (lane_groups >= sms) return 0;
  detail::check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel, 32 * kWarpsPerBlock, 0),
                "occupancy");
  const std::int64_t target = 2 * std::int64_t(sms) * std::max(blocks_per_sm, 1) * kWarpsPerBlock;
  const std::int64_t tiles = (chunks + kTileChunks - 1) / kTileChunks;
  const std::int64_t segments = std::min<std::int64_t>({(target + lane_groups - 1) / lane_groups, tiles / 2, 65535});
  if (segments <= 1) return 0;
  return (tiles + segments - 1) / segments * kTileChunks;
}

template <int Method, bool ExactData, class In, class Real>
void launch(params<In, Real> p, unsigned sequences, cudaStream_t stream) {
  if (p.chunks == 0 || sequences == 0) return;
  const auto kernel = state_passing_kernel<Method, ExactData, In, Real>;
  const unsigned blocks = unsigned((p.lane_groups + kWarpsPerBlock - 1) / kWarpsPerBlock);
  if (p.chunk_offsets == nullptr) p.segment_chunks = segment_chunks_for(kernel, p.lane_groups, p.chunks);
  if (p.segment_chunks == 0) {
    kernel<<<dim3(blocks, sequences), 32 * kWarpsPerBlock, 0, stream>>>(p);
    detail::check(cudaGetLastError(), "state_passing launch");
    return;
  }
  const std::int64_t segments = (p.chunks + p.segment_chunks - 1) / p.segment_chunks, lanes = p.lane_groups * 32;
  void* temp = nullptr;
  detail::check(cudaMallocAsync(&temp, std::size_t(2 * segments * lanes) * sizeof(Real), stream), "cudaMallocAsync");
  p.segment_decay = static_cast<Real*>(temp);
  p.segment_state = p.segment_decay + segments * lanes;
  const dim3 grid(blocks, unsigned(segments));
  state_passing_kernel<-1, ExactData><<<grid, 32 * kWarpsPerBlock, 0, stream>>>(p);
  segment_carries_kernel<<<unsigned((lanes + 255) / 256), 256, 0, stream>>>(p.segment_decay, p.segment_state, segments,
                                                                            lanes);
  kernel<<<grid, 32 * kWarpsPerBlock, 0, stream>>>(p);
  const cudaError_t launched = cudaGetLastError();
  detail::check(cudaFreeAsync(temp, stream), "cudaFreeAsync");
  detail::check(launched, "state_passing launch");
}

template <bool ExactData, class In>
void dispatch(const params<In, float>& p, state_passing_method m, cudaStream_t stream) {
  switch (m) {
    case state_passing_method::cuda_core: return launch<0, ExactData>(p, 1, stream);
    case state_passing_method::tensor_core: return launch<1, ExactData>(p, 1, stream);
    case state_passing_method::tensor_core_speculative: return launch<2, ExactData>(p, 1, stream);
  }
  require(false, "unknown method");
}

}  // namespace

void state_passing(const float* local, const float* log_decay, const std::uint8_t* starts, float* states,
                   const state_passing_shape& shape, state_passing_method method, cudaStream_t stream) {
  dispatch<false>(make_params(local, log_decay, starts, nullptr, states, shape), method, stream);
}

void state_passing(const std::uint16_t* local_bf16, const float* log_decay, const std::uint8_t* starts,
                   float* states, const state_passing_shape& shape, state_passing_method method,
                   cudaStream_t stream) {
  dispatch<true>(make_params(local_bf16, log_decay, starts, nullptr, states, shape), method, stream);
}

void state_passing(const double* local, const double* log_decay, const std::uint8_t* starts, double* states,
                   const state_passing_shape& shape, state_passing_method method, cudaStream_t stream) {
  require(method == state_passing_method::cuda_core, "float64 runs on the CUDA cores only");
  launch<0, false>(make_params(local, log_decay, starts, nullptr, states, shape), 1, stream);
}

void state_passing_per_sequence(const float* local, const float* log_decay, const std::int64_t* chunk_offsets,
                                std::int64_t num_sequences, float* states, const state_passing_shape& shape,
                                cudaStream_t stream) {
  require(num_sequences >= 0 && num_sequences <= 65535, "per-sequence grid takes 0..65535 sequences");
  require(num_sequences == 0 || chunk_offsets != nullptr, "null chunk_offsets");
  launch<0, false>(make_params(local, log_decay, nullptr, chunk_offsets, states, shape), unsigned(num_sequences),
                   stream);
}

void state_passing_finals(const float* states, const std::int64_t* chunk_offsets, std::int64_t num_sequences,
                          const float* tail_local, const float* tail_log_decay, float* finals,
                          const state_passing_shape& shape, cudaStream_t stream) {
  check_shape(shape);
  require(num_sequences >= 0, "negative number of sequences");
  if (num_sequences == 0) return;
  require(chunk_offsets && finals && (states || shape.chunks == 0), "null states, chunk_offsets or finals");
  require((tail_local == nullptr) == (tail_log_decay == nullptr), "tail_local and tail_log_decay go together");
  const std::int64_t per_head = std::int64_t(shape.rows) * shape.cols, lanes = per_head * shape.heads;
  require(num_sequences <= (std::int64_t{1} << 31) / lanes * 255, "too many sequences for one launch");
  const std::int64_t threads = num_sequences * lanes;
  const bool per_row = shape.decay == decay_layout::per_row;
  finals_kernel<<<unsigned((threads + 255) / 256), 256, 0, stream>>>(
      states, chunk_offsets, num_sequences, tail_local, tail_log_decay, finals, lanes, per_head, shape.cols,
      per_row ? shape.rows : 1, per_row);
  detail::check(cudaGetLastError(), "state_passing_finals launch");
}

}  // namespace mmv::gpu
