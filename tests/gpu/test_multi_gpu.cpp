// The sharded kernels (mmvram/gpu/multi.hpp) on every GPU of the machine (skipped with fewer
// than two): random cuts of one input into shards (empty shards, shards without a start, one
// giant segment across all), the gathered result checked with the same verifiers and fp32 rule
// as the single-GPU kernels (harness/kernel_reference.hpp); int32 must be exact. Both drivers:
// one process driving the group, and one thread per rank calling the rank_* functions.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "catch.hpp"
#include "mmvram/gpu/multi.hpp"
#include "mmvram/gpu/runtime/buffer.hpp"
#include "mmvram/gpu/runtime/stream.hpp"
#include "mmvram/harness/kernel_reference.hpp"
#include "mmvram/harness/random_inputs.hpp"

namespace {

namespace multi = mmv::gpu::multi;
namespace runtime = mmv::gpu::runtime;
namespace inputs = mmv::inputs;
using inputs::dtype;

int device_count() {
  int c = 0;
  return cudaGetDeviceCount(&c) == cudaSuccess ? c : 0;
}

// One rank's device memory and stream.
struct rank_memory {
  int device = 0;
  std::int64_t begin = 0, n = 0;
  runtime::device_buffer x, flags, out, offsets, counts;
  std::unique_ptr<runtime::stream> stream;
};

struct problem {
  dtype type;
  std::int64_t n;
  std::vector<std::uint8_t> x, flags;  // x: 4-byte values
  std::vector<rank_memory> ranks;
};

// Cuts [0, n) at p - 1 random points (some shards empty when cuts repeat) and uploads.
problem make_problem(dtype t, std::int64_t n, const std::string& dist, int p, std::uint64_t seed, bool empty_shard) {
  problem pr{t, n, std::vector<std::uint8_t>(static_cast<std::size_t>(n) * 4), std::vector<std::uint8_t>(static_cast<std::size_t>(n)), {}};
  inputs::fill_values(t, pr.x.data(), n, seed);
  inputs::fill_flags(*inputs::distribution::parse(dist), pr.flags.data(), n, inputs::mix64(seed));
  inputs::stream d(inputs::mix64(seed + 1));
  std::vector<std::int64_t> cut{0, n};
  for (int r = 0; r < p - 1; ++r) cut.push_back(empty_shard && r == 0 ? 0 : d.integer(0, n));
  std::sort(cut.begin(), cut.end());
  for (int r = 0; r < p; ++r) {
    rank_memory m;
    m.device = r, m.begin = cut[r], m.n = cut[r + 1] - cut[r];
    REQUIRE(cudaSetDevice(r) == cudaSuccess);
    const auto bytes = static_cast<std::size_t>(std::max<std::int64_t>(m.n, 1));
    m.x = runtime::device_buffer(bytes * 4), m.flags = runtime::device_buffer(bytes), m.out = runtime::device_buffer(bytes * 4);
    m.offsets = runtime::device_buffer((bytes + 1) * 8), m.counts = runtime::device_buffer(16);
    m.stream = std::make_unique<runtime::stream>();
    if (m.n > 0) {
      REQUIRE(cudaMemcpy(m.x.get(), pr.x.data() + m.begin * 4, static_cast<std::size_t>(m.n) * 4, cudaMemcpyHostToDevice) == cudaSuccess);
      REQUIRE(cudaMemcpy(m.flags.get(), pr.flags.data() + m.begin, static_cast<std::size_t>(m.n), cudaMemcpyHostToDevice) == cudaSuccess);
    }
    pr.ranks.push_back(std::move(m));
  }
  return pr;
}

template <class T>
std::vector<multi::scan_shard<T>> scan_shards(const problem& pr) {
  std::vector<multi::scan_shard<T>> s;
  for (const auto& m : pr.ranks) s.push_back({m.x.as<T>(), m.flags.as<std::uint8_t>(), m.out.as<T>(), m.n, m.stream->get()});
  return s;
}

template <class T>
std::vector<multi::sum_shard<T>> sum_shards(const problem& pr) {
  std::vector<multi::sum_shard<T>> s;
  for (const auto& m : pr.ranks)
    s.push_back({m.x.as<T>(), m.flags.as<std::uint8_t>(), m.out.as<T>(), m.offsets.as<std::int64_t>(),
                 m.counts.as<std::int64_t>(), m.counts.as<std::int64_t>() + 1, m.n, m.stream->get()});
  return s;
}

void sync_all(const problem& pr) {
  for (const auto& m : pr.ranks) {
    REQUIRE(cudaSetDevice(m.device) == cudaSuccess);
    m.stream->synchronize();
  }
}

std::vector<std::uint8_t> gather_scan(const problem& pr) {
  std::vector<std::uint8_t> out(static_cast<std::size_t>(pr.n) * 4);
  for (const auto& m : pr.ranks)
    if (m.n > 0) REQUIRE(cudaMemcpy(out.data() + m.begin * 4, m.out.get(), static_cast<std::size_t>(m.n) * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
  return out;
}

// The owned segments of every rank, in order, with global offsets.
mmv::kernel_reference::verdict verify_sums(const problem& pr) {
  std::vector<std::uint8_t> sums;
  std::vector<std::int64_t> offsets;
  for (const auto& m : pr.ranks) {
    std::int64_t c[2];
    REQUIRE(cudaMemcpy(c, m.counts.get(), 16, cudaMemcpyDeviceToHost) == cudaSuccess);
    REQUIRE(c[0] >= 0);
    REQUIRE(c[0] <= m.n);
    REQUIRE((c[1] == 0 || c[1] == 1));
    std::vector<std::uint8_t> s(static_cast<std::size_t>(c[0]) * 4);
    std::vector<std::int64_t> o(static_cast<std::size_t>(c[0]));
    if (c[0] > 0) {
      REQUIRE(cudaMemcpy(s.data(), m.out.get(), s.size(), cudaMemcpyDeviceToHost) == cudaSuccess);
      REQUIRE(cudaMemcpy(o.data(), m.offsets.get(), o.size() * 8, cudaMemcpyDeviceToHost) == cudaSuccess);
    }
    for (std::int64_t k = c[1]; k < c[0]; ++k) {
      sums.insert(sums.end(), s.begin() + k * 4, s.begin() + k * 4 + 4);
      offsets.push_back(o[static_cast<std::size_t>(k)] + m.begin);
    }
  }
  const auto count = static_cast<std::int64_t>(offsets.size());
  offsets.push_back(pr.n);
  return mmv::kernel_reference::verify_segmented_sum(pr.type, pr.x.data(), pr.flags.data(), sums.data(), offsets.data(), count, pr.n);
}

// One thread per rank, each on its rank's device, as a one-process-per-GPU job runs; the first
// exception of any thread is rethrown here after all have joined.
void run_per_rank(multi::nccl_group& g, const std::function<void(int)>& call) {
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(g.size()));
  std::vector<std::thread> threads;
  for (int r = 0; r < g.size(); ++r)
    threads.emplace_back([&, r] {
      try {
        mmv::gpu::runtime::check(cudaSetDevice(g.device(r)), "cudaSetDevice");
        call(r);
      } catch (...) {
        errors[static_cast<std::size_t>(r)] = std::current_exception();
      }
    });
  for (auto& t : threads) t.join();
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
}

template <class T>
void check_all(multi::nccl_group& g, dtype t, std::int64_t n, const std::string& dist, std::uint64_t seed, bool empty_shard, bool per_rank) {
  const int p = g.size();
  CAPTURE(n, dist, seed, p, empty_shard, per_rank);
  for (const bool segmented : {false, true}) {
    problem pr = make_problem(t, n, dist, p, seed, empty_shard);
    std::string cuts;
    for (const auto& m : pr.ranks) cuts += std::to_string(m.begin) + " ";
    CAPTURE(cuts);
    const auto shards = scan_shards<T>(pr);
    if (!per_rank) {
      segmented ? multi::sharded_segmented_scan(g, std::span<const multi::scan_shard<T>>(shards))
                : multi::sharded_scan(g, std::span<const multi::scan_shard<T>>(shards));
    } else {
      run_per_rank(g, [&](int r) {
        segmented ? multi::rank_segmented_scan(g.comm(r), shards[r], g.workspace(r))
                  : multi::rank_scan(g.comm(r), shards[r], g.workspace(r));
      });
    }
    sync_all(pr);
    const auto out = gather_scan(pr);
    const auto v = mmv::kernel_reference::verify_segmented_scan(t, pr.x.data(), segmented ? pr.flags.data() : nullptr, out.data(), n);
    INFO((segmented ? "segmented scan: " : "scan: ") << v.detail);
    CHECK(v.pass);
  }
  problem pr = make_problem(t, n, dist, p, seed, empty_shard);
  const auto shards = sum_shards<T>(pr);
  if (!per_rank) multi::sharded_segmented_sum(g, std::span<const multi::sum_shard<T>>(shards));
  else run_per_rank(g, [&](int r) { multi::rank_segmented_sum(g.comm(r), shards[r], g.workspace(r)); });
  sync_all(pr);
  const auto v = verify_sums(pr);
  INFO("segmented sum: " << v.detail);
  CHECK(v.pass);
}

}  // namespace

TEST_CASE("sharded scans and sums equal the single-array reference on every GPU", "[multi_gpu]") {
  const int p = device_count();  // at least two: main() skips the run otherwise
  std::vector<int> devices(p);
  for (int r = 0; r < p; ++r) devices[r] = r;
  multi::nccl_group g(devices);
  std::uint64_t seed = 0x5a4d;
  for (const char* dist : {"one_segment", "first_flag_0", "all_length_1", "geometric:32", "geometric:1024", "pareto:32768", "fixed:1048576"})
    for (const std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{3}, std::int64_t{4097}, std::int64_t{3'000'001}, std::int64_t{1} << 24})
      for (const bool empty_shard : {false, true}) {
        ++seed;
        check_all<float>(g, dtype::f32, n, dist, seed, empty_shard, seed % 3 == 0);
        check_all<std::int32_t>(g, dtype::i32, n, dist, seed, empty_shard, seed % 3 == 1);
      }
}
