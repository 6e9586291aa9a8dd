// Host entry points of the inter-chunk state propagation (state_passing.hpp): shape checks, the
// CUDA-core method's split chain and its look-back words, the other methods' choice between one
// chain per lane group and segments of chunks (reduce-then-scan, when the lanes give fewer warps
// than SMs), and the launches of device/state_passing.cuh's kernels.
#include <algorithm>
#include <cstddef>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "launch.hpp"
#include "mmvram/gpu/runtime/buffer.hpp"
#include "mmvram/gpu/runtime/device.hpp"
#include "mmvram/gpu/device/state_passing.cuh"
#include "mmvram/gpu/state_passing.hpp"

namespace mmv::gpu {
namespace {

using agent::kStateWarpsPerBlock;
using warp::kTileChunks;
template <class In, class Real>
using params = agent::state_passing_params<In, Real>;

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
  const int sms = runtime::sm_count();
  int blocks_per_sm = 0;
  if (lane_groups >= sms) return 0;
  detail::check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel, 32 * kStateWarpsPerBlock, 0),
                "occupancy");
  const std::int64_t target = 2 * std::int64_t(sms) * std::max(blocks_per_sm, 1) * kStateWarpsPerBlock;
  const std::int64_t tiles = (chunks + kTileChunks - 1) / kTileChunks;
  const std::int64_t segments = std::min<std::int64_t>({(target + lane_groups - 1) / lane_groups, tiles / 2, 65535});
  if (segments <= 1) return 0;
  return (tiles + segments - 1) / segments * kTileChunks;
}

// Scan: the scan policy of the method (agent/state_passing.cuh); sequences: the per-sequence
// grid's rows (1 otherwise).
template <class Scan, bool ExactData, class In, class Real>
void launch(params<In, Real> p, unsigned sequences, cudaStream_t stream) {
  if (p.chunks == 0 || sequences == 0) return;
  const auto kernel = device::state_passing_kernel<Scan, ExactData, In, Real>;
  const unsigned blocks = unsigned((p.lane_groups + kStateWarpsPerBlock - 1) / kStateWarpsPerBlock);
  if (p.chunk_offsets == nullptr) p.segment_chunks = segment_chunks_for(kernel, p.lane_groups, p.chunks);
  if (p.segment_chunks == 0) {
    kernel<<<dim3(blocks, sequences), 32 * kStateWarpsPerBlock, 0, stream>>>(p);
    detail::check(cudaGetLastError(), "state_passing launch");
    return;
  }
  const std::int64_t segments = (p.chunks + p.segment_chunks - 1) / p.segment_chunks, lanes = p.lane_groups * 32;
  const runtime::async_buffer temp(std::size_t(2 * segments * lanes) * sizeof(Real), stream);
  p.segment_decay = temp.as<Real>();
  p.segment_state = p.segment_decay + segments * lanes;
  const dim3 grid(blocks, unsigned(segments));
  device::segment_totals_kernel<<<grid, 32 * kStateWarpsPerBlock, 0, stream>>>(p);
  device::segment_carries_kernel<<<unsigned((lanes + 255) / 256), 256, 0, stream>>>(p.segment_decay,
                                                                                    p.segment_state, segments, lanes);
  kernel<<<grid, 32 * kStateWarpsPerBlock, 0, stream>>>(p);
  detail::check(cudaGetLastError(), "state_passing launch");
}

// The split chain's look-back words: one zeroed allocation per device for each instantiation
// (each local-state type's launch_split has its own Launch, so its own statics), grown as needed
// (stream-ordered) and kept for the process's lifetime. A call tags its words with a fresh
// epoch, so nothing is reset between calls (the words are zeroed again when the epochs run
// out), and waits for the previous call's kernel (an event), so that calls on different streams
// never share the words at once. launch(words, epoch) queues the kernel on stream.
template <class Launch>
void with_lookback_words(std::size_t count, cudaStream_t stream, const Launch& launch) {
  struct space {
    std::uint64_t* words = nullptr;
    std::size_t count = 0;
    std::uint32_t epoch = 0;
    cudaEvent_t done = nullptr;
  };
  static std::mutex mutex;
  static std::map<int, space> spaces;
  constexpr std::uint32_t kLastEpoch = (1u << 31) - 1;
  int device = 0;
  detail::check(cudaGetDevice(&device), "cudaGetDevice");
  const std::lock_guard<std::mutex> lock(mutex);
  space& s = spaces[device];
  if (s.done == nullptr) detail::check(cudaEventCreateWithFlags(&s.done, cudaEventDisableTiming), "cudaEventCreate");
  else detail::check(cudaStreamWaitEvent(stream, s.done, 0), "cudaStreamWaitEvent");
  if (s.count < count) {
    if (s.words != nullptr) detail::check(cudaFreeAsync(s.words, stream), "cudaFreeAsync");
    s.words = nullptr, s.count = 0;
    detail::check(cudaMallocAsync(reinterpret_cast<void**>(&s.words), count * 8, stream),
                  "cudaMallocAsync(" + std::to_string(count * 8) + " bytes)");
    s.count = count, s.epoch = kLastEpoch;
  }
  if (s.epoch == kLastEpoch) {
    detail::check(cudaMemsetAsync(s.words, 0, s.count * 8, stream), "cudaMemsetAsync");
    s.epoch = 0;
  }
  launch(s.words, ++s.epoch);
  detail::check(cudaEventRecord(s.done, stream), "cudaEventRecord");
}

// The CUDA-core method on fp32 or bf16 local states: the split chain, a block a span of
// kStateWarpsPerBlock segments of 16·K chunks of one lane group, at least MinBlocks blocks per
// SM (docs/state_passing.md has the measured choices). Under CUDA graph capture (where the host-side epoch and event would be frozen into the
// graph and replays would read one another's look-back words), the single chain per lane group
// instead: no state between calls, no workspace of its own.
template <int K, int MinBlocks, bool ExactData, class In>
void launch_split(params<In, float> p, cudaStream_t stream) {
  if (p.chunks == 0) return;
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  detail::check(cudaStreamIsCapturing(stream, &capture), "cudaStreamIsCapturing");
  if (capture != cudaStreamCaptureStatusNone) return launch<agent::serial_scan<>, ExactData>(p, 1, stream);
  const std::int64_t span = 16 * K * kStateWarpsPerBlock, spans = (p.chunks + span - 1) / span;
  const std::int64_t blocks = p.lane_groups * spans, lanes = p.lane_groups * 32;
  require(blocks < (std::int64_t{1} << 31), "too many chunks for one launch");
  with_lookback_words(std::size_t(spans * lanes), stream, [&](std::uint64_t* words, std::uint32_t epoch) {
    p.lookback = words, p.epoch = epoch;
    device::state_passing_split_kernel<K, MinBlocks, In><<<unsigned(blocks), 32 * kStateWarpsPerBlock, 0, stream>>>(p);
    detail::check(cudaGetLastError(), "state_passing launch");
  });
}

template <bool ExactData, class In>
void dispatch(const params<In, float>& p, state_passing_method m, cudaStream_t stream) {
  switch (m) {
    case state_passing_method::cuda_core:
      return launch_split<1, sizeof(In) == 4 ? 8 : 12, ExactData>(p, stream);
    case state_passing_method::tensor_core: return launch<agent::mma_scan<false>, ExactData>(p, 1, stream);
    case state_passing_method::tensor_core_speculative: return launch<agent::mma_scan<true>, ExactData>(p, 1, stream);
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
  launch<agent::serial_scan<1, 1>, false>(make_params(local, log_decay, starts, nullptr, states, shape), 1, stream);
}

void state_passing_per_sequence(const float* local, const float* log_decay, const std::int64_t* chunk_offsets,
                                std::int64_t num_sequences, float* states, const state_passing_shape& shape,
                                cudaStream_t stream) {
  require(num_sequences >= 0 && num_sequences <= 65535, "per-sequence grid takes 0..65535 sequences");
  require(num_sequences == 0 || chunk_offsets != nullptr, "null chunk_offsets");
  launch<agent::serial_scan<1, 1>, false>(make_params(local, log_decay, nullptr, chunk_offsets, states, shape),
                                           unsigned(num_sequences), stream);
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
  device::finals_kernel<<<unsigned((threads + 255) / 256), 256, 0, stream>>>(
      states, chunk_offsets, num_sequences, tail_local, tail_log_decay, finals, lanes, per_head, shape.cols,
      per_row ? shape.rows : 1, per_row);
  detail::check(cudaGetLastError(), "state_passing_finals launch");
}

}  // namespace mmv::gpu
