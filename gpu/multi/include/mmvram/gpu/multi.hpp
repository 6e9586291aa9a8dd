// Past one GPU: the fused kernels on an array cut into consecutive shards, one per GPU, joined
// through NCCL. Each GPU runs the single-GPU kernel (api.hpp) on its shard, summarises it in 24
// bytes (multi/shard_carry.hpp), the summaries are exchanged by one ncclAllGather, and each GPU
// repairs only what the cut touched: the items before its shard's first segment start (scans;
// every item for the unsegmented scan) or its last segment's sum (segmented sum). Any number of
// GPUs and any split: empty shards, shards without a start, segments spanning several shards.
// Every call is asynchronous on the shards' streams; errors throw mmv::gpu::cuda_error.
#pragma once
#include <cuda_runtime_api.h>
#include <nccl.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "mmvram/gpu/runtime/error.hpp"

namespace mmv::gpu::multi {

// One shard of a scan: device pointers on the shard's GPU (flags ignored by the unsegmented
// scan), n items, and the stream its work is queued on.
template <class T>
struct scan_shard {
  const T* x = nullptr;
  const std::uint8_t* flags = nullptr;
  T* out = nullptr;
  std::int64_t n = 0;
  cudaStream_t stream = nullptr;
};

// One shard of a segmented sum. After the call the shard's segments of the whole array are
// sums[k], offsets[k] (local to the shard) for *first_owned <= k < *num_segments (all device
// memory): its first local segment is dropped when it continues an earlier shard's segment, and
// its last one holds the whole segment's sum when the segment runs on into later shards.
template <class T>
struct sum_shard {
  const T* x = nullptr;
  const std::uint8_t* flags = nullptr;
  T* sums = nullptr;                     // room for n values
  std::int64_t* offsets = nullptr;       // room for n + 1
  std::int64_t* num_segments = nullptr;  // one value
  std::int64_t* first_owned = nullptr;   // one value: 0 or 1
  std::int64_t n = 0;
  cudaStream_t stream = nullptr;
};

// Device memory one rank's calls reuse (kernel temporary storage and the exchanged summaries),
// grown on demand, on the device of its first use. Calls return before the GPU has finished, so
// calls that share a workspace must be on the same stream (then they are ordered) or be
// synchronised between; concurrent calls need their own workspaces (like api.hpp's temp storage).
class rank_workspace {
 public:
  rank_workspace();
  ~rank_workspace();
  rank_workspace(const rank_workspace&) = delete;
  rank_workspace& operator=(const rank_workspace&) = delete;
  struct impl;
  impl& get() { return *impl_; }

 private:
  std::unique_ptr<impl> impl_;
};

// One process driving several GPUs: one NCCL communicator per device (ncclCommInitAll) and one
// workspace per rank. Rank r is devices[r]; shards are passed in rank order. Throws cuda_error
// naming the NCCL failure.
class nccl_group {
 public:
  explicit nccl_group(std::vector<int> devices);
  ~nccl_group();
  nccl_group(const nccl_group&) = delete;
  nccl_group& operator=(const nccl_group&) = delete;
  int size() const { return static_cast<int>(devices_.size()); }
  int device(int rank) const { return devices_[static_cast<std::size_t>(rank)]; }
  ncclComm_t comm(int rank) const { return comms_[static_cast<std::size_t>(rank)]; }
  rank_workspace& workspace(int rank) { return *workspaces_[static_cast<std::size_t>(rank)]; }

 private:
  std::vector<int> devices_;
  std::vector<ncclComm_t> comms_;
  std::vector<std::unique_ptr<rank_workspace>> workspaces_;
};

// The whole array's inclusive scan (MatMulScan kernel per shard), segmented inclusive scan (SSCR)
// or segmented sum (SCD), one shard per rank of g (shards.size() == g.size()).
void sharded_scan(nccl_group& g, std::span<const scan_shard<float>> shards);
void sharded_scan(nccl_group& g, std::span<const scan_shard<std::int32_t>> shards);
void sharded_segmented_scan(nccl_group& g, std::span<const scan_shard<float>> shards);
void sharded_segmented_scan(nccl_group& g, std::span<const scan_shard<std::int32_t>> shards);
void sharded_segmented_sum(nccl_group& g, std::span<const sum_shard<float>> shards);
void sharded_segmented_sum(nccl_group& g, std::span<const sum_shard<std::int32_t>> shards);

// One process per GPU (e.g. under torchrun or MPI): this rank's part of the same calls, on the
// current device (which must be the communicator's), its rank and the rank count read from
// `comm`. Every rank makes the same call.
void rank_scan(ncclComm_t comm, const scan_shard<float>& shard, rank_workspace& ws);
void rank_scan(ncclComm_t comm, const scan_shard<std::int32_t>& shard, rank_workspace& ws);
void rank_segmented_scan(ncclComm_t comm, const scan_shard<float>& shard, rank_workspace& ws);
void rank_segmented_scan(ncclComm_t comm, const scan_shard<std::int32_t>& shard, rank_workspace& ws);
void rank_segmented_sum(ncclComm_t comm, const sum_shard<float>& shard, rank_workspace& ws);
void rank_segmented_sum(ncclComm_t comm, const sum_shard<std::int32_t>& shard, rank_workspace& ws);

// The exchange alone, as the sharded calls make it (one all-gather of one summary per rank), for
// timing its share: buffers[r] is device memory of rank r with room for 1 + g.size() summaries
// (multi/shard_carry.hpp, 24 bytes each for 4-byte values), streams[r] its stream.
void time_exchange_probe(nccl_group& g, std::span<const cudaStream_t> streams, std::span<void* const> buffers);

}  // namespace mmv::gpu::multi
