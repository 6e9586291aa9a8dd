// gpu/multi: the sharded scans and segmented sum of multi.hpp. Three phases per rank: local (the
// single-GPU kernel on the shard, then its summary), exchange (one ncclAllGather of the
// summaries) and repair (the carry into the items before the first start, or the owed sum into
// the last segment). The group driver runs each phase over all ranks, the exchange inside one
// NCCL group; a rank of a one-process-per-GPU job runs the three in order. The device kernels
// of the phases are in shard_kernels.cuh.
#include "mmvram/gpu/multi.hpp"

#include <string>
#include <vector>

#include "mmvram/gpu/api.hpp"
#include "mmvram/gpu/multi/shard_carry.hpp"
#include "mmvram/gpu/runtime/buffer.hpp"
#include "nccl_library.hpp"
#include "shard_kernels.cuh"

namespace mmv::gpu::multi {

using runtime::check;

namespace {

void check_nccl(ncclResult_t r, const char* what) {
  if (r != ncclSuccess) throw cuda_error(std::string("nccl: ") + what + ": " + nccl().error_string(r));
}

}  // namespace

// The workspace: the kernel's temporary storage, the first-start word and the summaries (this
// rank's, then all ranks'), on the device of its first use.
struct rank_workspace::impl {
  runtime::device_buffer temp, first, summaries;
  int device = -1;
  void reserve(std::size_t temp_bytes, std::size_t summary_bytes) {
    int d = 0;
    check(cudaGetDevice(&d), "cudaGetDevice");
    if (device >= 0 && d != device) throw cuda_error("gpu/multi: a rank_workspace was used on two devices");
    device = d;
    if (temp.bytes() < temp_bytes) temp = runtime::device_buffer(temp_bytes);
    if (first.bytes() < sizeof(unsigned long long)) first = runtime::device_buffer(sizeof(unsigned long long));
    if (summaries.bytes() < summary_bytes) summaries = runtime::device_buffer(summary_bytes);
  }
};

rank_workspace::rank_workspace() : impl_(std::make_unique<impl>()) {}
rank_workspace::~rank_workspace() = default;

namespace {

enum class op { scan, segmented_scan, segmented_sum };

// One rank's job: its shard, its place in the group and its workspace.
template <class T, class Shard>
struct job {
  op kind;
  const Shard& shard;
  ncclComm_t comm;
  int rank, ranks;
  rank_workspace::impl& ws;
  shard_summary<T>* mine() const { return ws.summaries.as<shard_summary<T>>(); }
  shard_summary<T>* all() const { return mine() + 1; }
  unsigned long long* first() const { return ws.first.as<unsigned long long>(); }
};

template <class T>
std::size_t kernel_temp_bytes(op kind, std::int64_t n) {
  std::size_t bytes = 0;
  if (kind == op::scan) matmul_scan(static_cast<const T*>(nullptr), nullptr, n, nullptr, bytes);
  else if (kind == op::segmented_scan) sscr_segmented_scan(static_cast<const T*>(nullptr), nullptr, nullptr, n, nullptr, bytes);
  else scd_segmented_sum(static_cast<const T*>(nullptr), nullptr, nullptr, nullptr, nullptr, n, nullptr, bytes);
  return bytes;
}

// The first start of the shard into ws.first (n for the unsegmented scan: it has none).
template <class J>
void first_start(const J& j, const std::uint8_t* flags) {
  const auto& s = j.shard;
  set_value<<<1, 1, 0, s.stream>>>(j.first(), s.n);
  if (j.kind != op::scan && s.n > 0) find_first_start<<<grid_for(s.n), kThreads, 0, s.stream>>>(flags, s.n, j.first());
  runtime::check_launch("gpu/multi: first start");
}

template <class T>
void local(const job<T, scan_shard<T>>& j) {
  const auto& s = j.shard;
  std::size_t bytes = kernel_temp_bytes<T>(j.kind, s.n);
  j.ws.reserve(bytes, sizeof(shard_summary<T>) * (1 + static_cast<std::size_t>(j.ranks)));
  if (j.kind == op::scan) matmul_scan(s.x, s.out, s.n, j.ws.temp.get(), bytes, s.stream);
  else sscr_segmented_scan(s.x, s.flags, s.out, s.n, j.ws.temp.get(), bytes, s.stream);
  first_start(j, s.flags);
  summarize_scan<<<1, 1, 0, s.stream>>>(s.out, s.n, j.first(), j.mine());
  runtime::check_launch("gpu/multi: summary");
}

template <class T>
void local(const job<T, sum_shard<T>>& j) {
  const auto& s = j.shard;
  std::size_t bytes = kernel_temp_bytes<T>(j.kind, s.n);
  j.ws.reserve(bytes, sizeof(shard_summary<T>) * (1 + static_cast<std::size_t>(j.ranks)));
  scd_segmented_sum(s.x, s.flags, s.sums, s.offsets, s.num_segments, s.n, j.ws.temp.get(), bytes, s.stream);
  summarize_sum<<<1, 1, 0, s.stream>>>(s.sums, s.offsets, s.num_segments, s.flags, s.n, j.mine());
  runtime::check_launch("gpu/multi: summary");
}

template <class T, class Shard>
void exchange(const job<T, Shard>& j) {
  check_nccl(nccl().all_gather(j.mine(), j.all(), sizeof(shard_summary<T>), ncclUint8, j.comm, j.shard.stream),
             "all-gather of the shard summaries");
}

template <class T>
void repair(const job<T, scan_shard<T>>& j) {
  const auto& s = j.shard;
  if (s.n > 0) add_carry<<<grid_for(s.n), kThreads, 0, s.stream>>>(s.out, j.all(), j.rank);
  runtime::check_launch("gpu/multi: carry");
}

template <class T>
void repair(const job<T, sum_shard<T>>& j) {
  const auto& s = j.shard;
  settle_sum<<<1, 1, 0, s.stream>>>(s.sums, s.num_segments, s.first_owned, j.all(), j.rank, j.ranks);
  runtime::check_launch("gpu/multi: owed sum");
}

// Restores the caller's current device when the group driver returns or throws.
struct device_guard {
  int saved = 0;
  device_guard() { check(cudaGetDevice(&saved), "cudaGetDevice"); }
  ~device_guard() { cudaSetDevice(saved); }
};

// One NCCL group (ncclGroupStart ... ncclGroupEnd) that is closed on every path: end() closes it
// and checks the result; a throw before that closes it unchecked, so the thread's group depth
// never stays raised.
class nccl_group_call {
 public:
  nccl_group_call() { check_nccl(nccl().group_start(), "group start"); }
  nccl_group_call(const nccl_group_call&) = delete;
  nccl_group_call& operator=(const nccl_group_call&) = delete;
  ~nccl_group_call() {
    if (open_) nccl().group_end();
  }
  void end() {
    open_ = false;
    check_nccl(nccl().group_end(), "group end");
  }

 private:
  bool open_ = true;
};

template <class T, class Shard>
void run_group(op kind, nccl_group& g, std::span<const Shard> shards) {
  if (static_cast<int>(shards.size()) != g.size())
    throw cuda_error("gpu/multi: " + std::to_string(shards.size()) + " shards for a group of " + std::to_string(g.size()));
  device_guard guard;
  std::vector<job<T, Shard>> jobs;
  for (int r = 0; r < g.size(); ++r)
    jobs.push_back({kind, shards[static_cast<std::size_t>(r)], g.comm(r), r, g.size(), g.workspace(r).get()});
  for (int r = 0; r < g.size(); ++r) check(cudaSetDevice(g.device(r)), "cudaSetDevice"), local(jobs[static_cast<std::size_t>(r)]);
  {
    nccl_group_call group;
    for (const auto& j : jobs) exchange(j);
    group.end();
  }
  for (int r = 0; r < g.size(); ++r) check(cudaSetDevice(g.device(r)), "cudaSetDevice"), repair(jobs[static_cast<std::size_t>(r)]);
}

template <class T, class Shard>
void run_rank(op kind, ncclComm_t comm, const Shard& shard, rank_workspace& ws) {
  int rank = 0, ranks = 0;
  check_nccl(nccl().comm_user_rank(comm, &rank), "rank");
  check_nccl(nccl().comm_count(comm, &ranks), "rank count");
  int comm_device = 0, device = 0;
  check_nccl(nccl().comm_cu_device(comm, &comm_device), "communicator's device");
  check(cudaGetDevice(&device), "cudaGetDevice");
  if (device != comm_device)
    throw cuda_error("gpu/multi: the current device is " + std::to_string(device) + ", the communicator's " +
                     std::to_string(comm_device));
  const job<T, Shard> j{kind, shard, comm, rank, ranks, ws.get()};
  local(j);
  exchange(j);
  repair(j);
}

}  // namespace

nccl_group::nccl_group(std::vector<int> devices) : devices_(std::move(devices)), comms_(devices_.size()) {
  if (devices_.empty()) throw cuda_error("gpu/multi: a group needs at least one device");
  check_nccl(nccl().comm_init_all(comms_.data(), size(), devices_.data()), "ncclCommInitAll");
  for (int r = 0; r < size(); ++r) workspaces_.push_back(std::make_unique<rank_workspace>());
}

nccl_group::~nccl_group() {
  for (auto c : comms_) nccl().comm_destroy(c);
}

void time_exchange_probe(nccl_group& g, std::span<const cudaStream_t> streams, std::span<void* const> buffers) {
  if (static_cast<int>(streams.size()) != g.size() || static_cast<int>(buffers.size()) != g.size())
    throw cuda_error("gpu/multi: one stream and one buffer per rank");
  constexpr std::size_t bytes = sizeof(shard_summary<float>);
  nccl_group_call group;
  for (int r = 0; r < g.size(); ++r)
    check_nccl(nccl().all_gather(buffers[r], static_cast<char*>(buffers[r]) + bytes, bytes, ncclUint8, g.comm(r), streams[r]),
               "all-gather");
  group.end();
}

#define MMV_SHARDED(T)                                                                                      \
  void sharded_scan(nccl_group& g, std::span<const scan_shard<T>> s) { run_group<T>(op::scan, g, s); }       \
  void sharded_segmented_scan(nccl_group& g, std::span<const scan_shard<T>> s) {                            \
    run_group<T>(op::segmented_scan, g, s);                                                                 \
  }                                                                                                         \
  void sharded_segmented_sum(nccl_group& g, std::span<const sum_shard<T>> s) {                              \
    run_group<T>(op::segmented_sum, g, s);                                                                  \
  }                                                                                                         \
  void rank_scan(ncclComm_t c, const scan_shard<T>& s, rank_workspace& w) { run_rank<T>(op::scan, c, s, w); } \
  void rank_segmented_scan(ncclComm_t c, const scan_shard<T>& s, rank_workspace& w) {                       \
    run_rank<T>(op::segmented_scan, c, s, w);                                                               \
  }                                                                                                         \
  void rank_segmented_sum(ncclComm_t c, const sum_shard<T>& s, rank_workspace& w) {                         \
    run_rank<T>(op::segmented_sum, c, s, w);                                                                \
  }
MMV_SHARDED(float)
MMV_SHARDED(std::int32_t)
#undef MMV_SHARDED

}  // namespace mmv::gpu::multi
