#include "multi_gpu.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <vector>

#include "json_file.hpp"
#include "kernel_inputs.hpp"
#include "mmvram/gpu/api.hpp"
#include "mmvram/gpu/multi.hpp"
#include "mmvram/gpu/multi/shard_carry.hpp"
#include "mmvram/gpu/runtime/buffer.hpp"
#include "mmvram/gpu/runtime/device.hpp"
#include "mmvram/gpu/runtime/stream.hpp"
#include "mmvram/harness/kernel_reference.hpp"
#include "mmvram/harness/random_inputs.hpp"
#include "timing.hpp"

namespace mmv::tool::kernels {
namespace {

using inputs::dtype;
namespace multi = mmv::gpu::multi;

enum class sharded_op { scan, segmented_scan, segmented_sum };
const char* name_of(sharded_op o) {
  return o == sharded_op::scan ? "scan" : o == sharded_op::segmented_scan ? "segmented_scan" : "segmented_sum";
}

// One GPU's shard: inputs, outputs and stream.
struct shard_memory {
  int device = 0;
  runtime::device_buffer x, flags, out, offsets, counts, temp;
  std::unique_ptr<runtime::stream> stream;
};

// Rank r's shard of the global array: values and flags drawn per rank (seed + r); flags[0] of
// every rank but the first is cleared, so each cut falls inside a segment and the carry crosses it.
void fill_shard(shard_memory& m, int r, dtype t, const inputs::distribution& d, std::int64_t n, std::uint64_t seed,
                runtime::host_buffer& x, runtime::host_buffer& f) {
  constexpr std::int64_t chunk = std::int64_t{1} << 28;
  for (std::int64_t b = 0; b < n; b += chunk) {
    const std::int64_t len = std::min(chunk, n - b);
    inputs::fill_values(t, x.get(), len, inputs::mix64(seed + 977 * r + b));
    inputs::fill_flags(d, f.as<std::uint8_t>(), len, inputs::mix64(seed + 131 * r + b));
    if (b == 0 && r > 0) f.as<std::uint8_t>()[0] = 0;
    if (b > 0 && d.k == inputs::distribution::kind::one_segment) f.as<std::uint8_t>()[0] = 0;
    runtime::check(cudaMemcpy(m.x.as<char>() + b * 4, x.get(), static_cast<std::size_t>(len) * 4, cudaMemcpyHostToDevice), "upload x");
    runtime::check(cudaMemcpy(m.flags.as<char>() + b, f.get(), static_cast<std::size_t>(len), cudaMemcpyHostToDevice), "upload flags");
  }
}

// Host wall time of launch() until every stream has finished, in ms.
double wall_ms(const std::vector<shard_memory>& s, const std::function<void()>& launch) {
  const auto t0 = std::chrono::steady_clock::now();
  launch();
  for (const auto& m : s) runtime::check(cudaSetDevice(m.device), "cudaSetDevice"), m.stream->synchronize();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

double median_ms(const std::vector<shard_memory>& s, int reps, const std::function<void()>& launch) {
  for (int w = 0; w < 3; ++w) wall_ms(s, launch);
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) t.push_back(wall_ms(s, launch));
  return median(t);
}

struct row {
  sharded_op op;
  dtype type;
  std::string dist;
  std::int64_t n_per_gpu = 0;
  double single_ms = 0, sharded_ms = 0, exchange_ms = 0;
  std::string check;  // PASS, FAIL: <why>, or "not checked (large)"
};

template <class T>
void launch_single(sharded_op op, shard_memory& m, std::int64_t n) {
  std::size_t bytes = m.temp.bytes();
  const T* x = m.x.as<T>();
  if (op == sharded_op::scan) gpu::matmul_scan(x, m.out.as<T>(), n, m.temp.get(), bytes, m.stream->get());
  else if (op == sharded_op::segmented_scan)
    gpu::sscr_segmented_scan(x, m.flags.as<std::uint8_t>(), m.out.as<T>(), n, m.temp.get(), bytes, m.stream->get());
  else
    gpu::scd_segmented_sum(x, m.flags.as<std::uint8_t>(), m.out.as<T>(), m.offsets.as<std::int64_t>(),
                           m.counts.as<std::int64_t>(), n, m.temp.get(), bytes, m.stream->get());
}

template <class T>
void launch_sharded(sharded_op op, multi::nccl_group& g, std::vector<shard_memory>& s, std::int64_t n) {
  if (op == sharded_op::segmented_sum) {
    std::vector<multi::sum_shard<T>> sh;
    for (auto& m : s)
      sh.push_back({m.x.as<T>(), m.flags.as<std::uint8_t>(), m.out.as<T>(), m.offsets.as<std::int64_t>(),
                    m.counts.as<std::int64_t>(), m.counts.as<std::int64_t>() + 1, n, m.stream->get()});
    multi::sharded_segmented_sum(g, std::span<const multi::sum_shard<T>>(sh));
    return;
  }
  std::vector<multi::scan_shard<T>> sh;
  for (auto& m : s) sh.push_back({m.x.as<T>(), m.flags.as<std::uint8_t>(), m.out.as<T>(), n, m.stream->get()});
  if (op == sharded_op::scan) multi::sharded_scan(g, std::span<const multi::scan_shard<T>>(sh));
  else multi::sharded_segmented_scan(g, std::span<const multi::scan_shard<T>>(sh));
}

// The gathered result of the last sharded run against the CPU reference.
std::string check_sharded(sharded_op op, dtype t, const std::vector<shard_memory>& s, std::int64_t n) {
  const auto p = static_cast<std::int64_t>(s.size()), total = n * p;
  std::vector<std::uint8_t> x(static_cast<std::size_t>(total) * 4), f(static_cast<std::size_t>(total)), out(x.size());
  std::vector<std::int64_t> offsets;
  std::vector<std::uint8_t> sums;
  for (std::int64_t r = 0; r < p; ++r) {
    const auto& m = s[static_cast<std::size_t>(r)];
    runtime::check(cudaSetDevice(m.device), "cudaSetDevice");
    runtime::check(cudaMemcpy(x.data() + r * n * 4, m.x.get(), static_cast<std::size_t>(n) * 4, cudaMemcpyDeviceToHost), "download x");
    runtime::check(cudaMemcpy(f.data() + r * n, m.flags.get(), static_cast<std::size_t>(n), cudaMemcpyDeviceToHost), "download flags");
    runtime::check(cudaMemcpy(out.data() + r * n * 4, m.out.get(), static_cast<std::size_t>(n) * 4, cudaMemcpyDeviceToHost), "download out");
    if (op != sharded_op::segmented_sum) continue;
    std::int64_t c[2];
    runtime::check(cudaMemcpy(c, m.counts.get(), 16, cudaMemcpyDeviceToHost), "download counts");
    if (c[0] < 0 || c[0] > n || c[1] < 0 || c[1] > 1) return "FAIL: segment count " + std::to_string(c[0]) + ", first owned " + std::to_string(c[1]);
    std::vector<std::int64_t> o(static_cast<std::size_t>(c[0]));
    if (c[0] > 0) runtime::check(cudaMemcpy(o.data(), m.offsets.get(), o.size() * 8, cudaMemcpyDeviceToHost), "download offsets");
    for (std::int64_t k = c[1]; k < c[0]; ++k) {
      sums.insert(sums.end(), out.begin() + (r * n + k) * 4, out.begin() + (r * n + k) * 4 + 4);
      offsets.push_back(o[static_cast<std::size_t>(k)] + r * n);
    }
  }
  kernel_reference::verdict v;
  if (op == sharded_op::segmented_sum) {
    const auto count = static_cast<std::int64_t>(offsets.size());
    offsets.push_back(total);
    v = kernel_reference::verify_segmented_sum(t, x.data(), f.data(), sums.data(), offsets.data(), count, total);
  } else {
    v = kernel_reference::verify_segmented_scan(t, x.data(), op == sharded_op::scan ? nullptr : f.data(), out.data(), total);
  }
  return v.pass ? "PASS" : "FAIL: " + v.detail;
}

}  // namespace

int run_multi_gpu(const multi_gpu_options& o, std::ostream& os) {
  int count = 0;
  runtime::check(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
  const int p = o.gpus > 0 ? o.gpus : count;
  if (p < 2 || p > count)
    throw cuda_error("kernels multi-gpu: needs 2 or more GPUs (" + std::to_string(count) + " here, " + std::to_string(p) + " asked)");
  std::vector<int> devices(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r) devices[static_cast<std::size_t>(r)] = r;
  const runtime::device_info dev = runtime::require_device();
  multi::nccl_group g(devices);
  os << "mmvram kernels multi-gpu on " << p << " x " << dev.name << ", " << format_count(o.n_per_gpu)
     << " items per GPU, median of " << o.reps << " (host wall clock, launch to last stream end)\n";
  std::vector<row> rows;
  // The cases: each op at n_per_gpu; the chain's fixed cost (4096 items per GPU, where the
  // kernels take a few µs); and, with --large-n, an array one GPU cannot hold.
  struct plan { sharded_op op; const char* dist; std::int64_t n; bool large = false; };
  std::vector<plan> plans = {{sharded_op::scan, "one_segment", o.n_per_gpu}};
  for (const char* d : {"one_segment", "geometric:1024", "geometric:32"}) plans.push_back({sharded_op::segmented_scan, d, o.n_per_gpu});
  for (const char* d : {"one_segment", "geometric:1024", "geometric:32"}) plans.push_back({sharded_op::segmented_sum, d, o.n_per_gpu});
  for (sharded_op op : {sharded_op::scan, sharded_op::segmented_scan, sharded_op::segmented_sum})
    plans.push_back({op, "geometric:32", 4096});
  if (o.large_n_per_gpu > 0) plans.push_back({sharded_op::segmented_scan, "geometric:1024", o.large_n_per_gpu, true});
  int failed = 0;
  for (const plan& pl : plans)
    for (const dtype t : {dtype::f32, dtype::i32}) {
      if (pl.n != o.n_per_gpu && t != dtype::f32) continue;
      const bool large = pl.large;
      try {
        const auto d = *inputs::distribution::parse(pl.dist);
        std::vector<shard_memory> s(static_cast<std::size_t>(p));
        runtime::host_buffer hx(static_cast<std::size_t>(std::min(pl.n, std::int64_t{1} << 28)) * 4),
            hf(static_cast<std::size_t>(std::min(pl.n, std::int64_t{1} << 28)));
        std::size_t temp = 0;
        gpu::scd_segmented_sum(static_cast<const float*>(nullptr), nullptr, nullptr, nullptr, nullptr, pl.n, nullptr, temp);
        for (int r = 0; r < p; ++r) {
          auto& m = s[static_cast<std::size_t>(r)];
          m.device = r;
          runtime::check(cudaSetDevice(r), "cudaSetDevice");
          const auto n = static_cast<std::size_t>(pl.n);
          m.x = runtime::device_buffer(n * 4), m.flags = runtime::device_buffer(n), m.out = runtime::device_buffer(n * 4);
          if (pl.op == sharded_op::segmented_sum) m.offsets = runtime::device_buffer((n + 1) * 8);
          m.counts = runtime::device_buffer(16), m.temp = runtime::device_buffer(temp * 2);
          m.stream = std::make_unique<runtime::stream>();
          fill_shard(m, r, t, d, pl.n, o.seed, hx, hf);
        }
        row rw{pl.op, t, pl.dist, pl.n, 0, 0, 0, ""};
        const auto sharded = [&] {
          t == dtype::f32 ? launch_sharded<float>(pl.op, g, s, pl.n) : launch_sharded<std::int32_t>(pl.op, g, s, pl.n);
        };
        wall_ms(s, sharded);
        rw.check = large ? "not checked (too large to gather)" : check_sharded(pl.op, t, s, pl.n);
        failed += rw.check.rfind("FAIL", 0) == 0;
        rw.sharded_ms = median_ms(s, o.reps, sharded);
        runtime::check(cudaSetDevice(0), "cudaSetDevice");
        std::vector<shard_memory> one;
        one.push_back(std::move(s[0]));
        rw.single_ms = median_ms(one, o.reps, [&] {
          t == dtype::f32 ? launch_single<float>(pl.op, one[0], pl.n) : launch_single<std::int32_t>(pl.op, one[0], pl.n);
        });
        s[0] = std::move(one[0]);
        // The exchange alone: one all-gather of the 24-byte summaries, as the sharded call makes it.
        std::vector<runtime::device_buffer> ex;
        for (int r = 0; r < p; ++r) runtime::check(cudaSetDevice(r), "cudaSetDevice"), ex.emplace_back(sizeof(multi::shard_summary<float>) * (p + 1));
        std::vector<cudaStream_t> streams;
        std::vector<void*> buffers;
        for (int r = 0; r < p; ++r) streams.push_back(s[static_cast<std::size_t>(r)].stream->get()), buffers.push_back(ex[static_cast<std::size_t>(r)].get());
        rw.exchange_ms = median_ms(s, o.reps, [&] { multi::time_exchange_probe(g, streams, buffers); });
        char line[300];
        std::snprintf(line, sizeof line, "%-15s %-4s %-15s n/GPU %-6s single %8.3f ms  sharded %8.3f ms  per-GPU %5.1f%%  exchange %7.3f ms (%4.1f%%)  %s\n",
                      name_of(pl.op), inputs::dtype_name(t), pl.dist, format_count(pl.n).c_str(), rw.single_ms, rw.sharded_ms,
                      100 * rw.single_ms / rw.sharded_ms, rw.exchange_ms, 100 * rw.exchange_ms / rw.sharded_ms, rw.check.c_str());
        os << line << std::flush;
        rows.push_back(rw);
      } catch (const cuda_error& e) {
        if (!large) throw;  // the extra large case may not fit: recorded, not fatal
        os << name_of(pl.op) << " n/GPU " << format_count(pl.n) << ": skipped (" << e.what() << ")\n";
        rows.push_back({pl.op, t, pl.dist, pl.n, 0, 0, 0, std::string("skipped: ") + e.what()});
      }
    }
  if (!o.out_path.empty()) {
    json j;
    j["schema"] = "mmvram-multi-gpu/1";
    j["gpu"] = {{"name", dev.name}, {"count", p}};
    j["timing"] = "host wall clock from the call to the end of the last stream, median of reps after 3 warm-ups";
    j["inputs"] = "per GPU: the kernels' values and flags drawn per rank; flags[0] of every rank but the first cleared";
    json rs = json::array();
    for (const auto& r : rows)
      rs.push_back({{"op", name_of(r.op)}, {"dtype", inputs::dtype_name(r.type)}, {"distribution", r.dist},
                    {"n_per_gpu", r.n_per_gpu}, {"gpus", p}, {"single_gpu_ms", r.single_ms}, {"sharded_ms", r.sharded_ms},
                    {"per_gpu_throughput_vs_single", r.single_ms / r.sharded_ms}, {"exchange_ms", r.exchange_ms},
                    {"exchange_share", r.exchange_ms / r.sharded_ms}, {"check", r.check}});
    j["results"] = std::move(rs);
    write_json_file(o.out_path, j);
    os << "wrote " << o.out_path << '\n';
  }
  return failed == 0 ? 0 : 1;
}

}  // namespace mmv::tool::kernels
