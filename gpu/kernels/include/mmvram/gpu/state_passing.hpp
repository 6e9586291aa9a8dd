// Host API of the inter-chunk state propagation of chunkwise linear RNNs over a packed batch
// (docs/state_passing.md): for chunks j = 0..G-1 and every lane (head h, state row r, column c)
//   h_j = exp(l_j) · h_{j-1} + u_j,   h_{j-1} := 0 where chunk j starts a sequence (and at j = 0),
// with log-decays l <= 0 one per (chunk, head, row) (GLA style) or one per (chunk, head)
// (Mamba-2 style). All pointers are device pointers; calls are asynchronous on `stream` and throw
// cuda_error (api.hpp) on a bad shape or a failed launch.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "mmvram/gpu/api.hpp"

namespace mmv::gpu {

// Where the log-decays are. per_row: l[j·chunk_stride + h·head_stride + r]; per_head:
// l[j·chunk_stride + h·head_stride] (mamba's dA_chunk_cumsum [H][G] is chunk_stride 1,
// head_stride G). Local states and results are chunk-major [G][H][N][V] (fla's [NT][H][K][V],
// mamba's [nchunks][nheads][headdim·dstate] with per_head decays).
enum class decay_layout { per_row, per_head };

struct state_passing_shape {
  std::int64_t chunks = 0;              // G
  int heads = 1, rows = 1, cols = 32;   // H, N, V; per_row needs V % 32 == 0, per_head N·V % 32 == 0
  decay_layout decay = decay_layout::per_row;
  std::int64_t chunk_stride = 0, head_stride = 0;  // of the log-decays, in elements
};

// How the in-tile scan of 16 chunks × 32 lanes runs (one warp per 32 lanes, tiles chained):
// tensor_core: exp(segsum(l)) built additively and multiplied on the tensor cores (mma.sync
//   m16n8k8 tf32; fp32 data as two tf32 parts, bf16 data exactly), the decay matrix masked at
//   sequence starts (no subtraction); only that product is HMMA: 48 of the fp32 kernel's 3,344
//   SASS instructions, 32 of the bf16 kernel's 3,240 (docs/kernels.md, "What runs on the tensor
//   cores"); the rest runs on the CUDA cores;
// tensor_core_speculative: the same product unsegmented, then each start r repaired on the CUDA
//   cores, SSCR-style: h_i = spec_i − exp(l_r + ... + l_i) · spec_{r-1}, with spec the unsegmented
//   values (the carry for r = 0);
// cuda_core: the (start, decay, value) recurrence applied serially per lane on the CUDA cores
//   (fp32 and bf16: per segment from a zero carry, then decay product · carry added to the
//   states before the segment's first start).
enum class state_passing_method { cuda_core = 0, tensor_core = 1, tensor_core_speculative = 2 };

// states[j] = h_j for every chunk. starts: uint8 per chunk (nullptr = no starts: one
// unsegmented sequence). local and states may be unaligned (element alignment suffices).
// cuda_core on fp32 and bf16 cuts the chunks into segments of 16 chunks, one warp each, four to a
// block (a span), joined by a single-pass look-back through 8 bytes per lane and span of device
// memory kept per device and local-state type for the process's lifetime (grown when a call
// needs more; calls of one type on different streams wait for one another). Under CUDA graph capture it runs one chain per 32
// lanes instead, which keeps no state between calls (a captured graph may be replayed). fp64,
// the other methods and the chain under capture, when the lanes give fewer warps (lanes / 32)
// than the GPU has SMs, cut the chunks into segments (reduce-then-scan) with 2 · segments · lanes
// values of stream-ordered temporary memory.
void state_passing(const float* local, const float* log_decay, const std::uint8_t* starts, float* states,
                   const state_passing_shape& shape, state_passing_method method, cudaStream_t stream = nullptr);
// bf16 local states (raw bf16 bits), fp32 accumulation and results.
void state_passing(const std::uint16_t* local_bf16, const float* log_decay, const std::uint8_t* starts,
                   float* states, const state_passing_shape& shape, state_passing_method method,
                   cudaStream_t stream = nullptr);
// float64 throughout (the CUDA-core method only): for gradient checks.
void state_passing(const double* local, const double* log_decay, const std::uint8_t* starts, double* states,
                   const state_passing_shape& shape, state_passing_method method, cudaStream_t stream = nullptr);

// One warp chain per (sequence, 32 lanes), each over its own chunks [chunk_offsets[k],
// chunk_offsets[k+1]) (how a per-sequence varlen kernel runs: the longest sequence sets the
// time). chunk_offsets: num_sequences + 1 increasing int64 values from 0 to G, on the device.
void state_passing_per_sequence(const float* local, const float* log_decay, const std::int64_t* chunk_offsets,
                                std::int64_t num_sequences, float* states, const state_passing_shape& shape,
                                cudaStream_t stream = nullptr);

// The final state of each sequence k: finals[k] = exp(tail_l_k) · states[chunk_offsets[k+1] - 1]
// + tail_local[k], or the plain state when tail_local is nullptr. The tail is the part of the
// chunk that holds the next sequence's start before that start (a boundary inside a chunk);
// tail_log_decay is per (sequence, head, row) or per (sequence, head) like the shape's decay,
// packed [S][H][N] or [S][H].
void state_passing_finals(const float* states, const std::int64_t* chunk_offsets, std::int64_t num_sequences,
                          const float* tail_local, const float* tail_log_decay, float* finals,
                          const state_passing_shape& shape, cudaStream_t stream = nullptr);

}  // namespace mmv::gpu
