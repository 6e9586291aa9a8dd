// mmvram kernels state-passing (state_passing_bench.hpp).
#include "mmvram/harness/random_inputs.hpp"
#include "state_passing_bench.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <stdexcept>
#include <vector>

#include "mmvram/gpu/runtime/buffer.hpp"
#include "mmvram/gpu/runtime/device.hpp"
#include "mmvram/gpu/runtime/stream.hpp"
#include "kernel_inputs.hpp"
#include "json_file.hpp"
#include "mmvram/gpu/state_passing.hpp"

namespace mmv::tool::kernels {

using inputs::dtype;
namespace {

using method = state_passing_method;

struct batch {
  std::vector<std::int64_t> offsets;  // chunk offsets of the sequences, [S + 1]
  std::vector<std::uint8_t> starts;
  std::vector<float> local, log_decay;  // [G][lanes], [G][H][N]
  std::int64_t chunks = 0, lanes = 0;
};

batch make_batch(const state_passing_options& o) {
  std::mt19937_64 rng(o.seed);
  std::lognormal_distribution<double> length(o.mu, o.sigma);
  batch b;
  b.offsets.push_back(0);
  for (int k = 0; k < o.sequences; ++k) {
    const auto tokens = std::max<std::int64_t>(1, std::llround(length(rng)));
    b.offsets.push_back(b.offsets.back() + (tokens + o.chunk_tokens - 1) / o.chunk_tokens);
  }
  b.chunks = b.offsets.back();
  b.lanes = std::int64_t(o.heads) * o.rows * o.cols;
  b.starts.assign(std::size_t(b.chunks), 0);
  for (int k = 0; k < o.sequences; ++k) b.starts[std::size_t(b.offsets[k])] = 1;
  std::normal_distribution<float> normal;
  std::uniform_real_distribution<float> unit;
  b.local.resize(std::size_t(b.chunks * b.lanes));
  for (auto& x : b.local) x = normal(rng);
  b.log_decay.resize(std::size_t(b.chunks * o.heads * o.rows));
  for (auto& x : b.log_decay) x = unit(rng) < 0.1f ? 0.f : -unit(rng);
  return b;
}

// Max error on every 97th lane against the float64 loop, over the magnitude of the same loop on
// |u| (restarting at the starts, or not when `unsegmented_scale`); false when one exceeds 2e-6.
bool verify(const batch& b, const state_passing_options& o, const std::vector<float>& local,
            const std::vector<float>& got, bool segmented, bool unsegmented_scale, double& max_error) {
  const std::int64_t per_head = std::int64_t(o.rows) * o.cols;
  bool ok = true;
  max_error = 0;
  for (std::int64_t x = 0; x < b.lanes; x += 97) {
    const std::int64_t head = x / per_head, row = x % per_head / o.cols;
    double h = 0, seg_abs = 0, all_abs = 0;
    for (std::int64_t j = 0; j < b.chunks; ++j) {
      const double a = std::exp(double(b.log_decay[std::size_t((j * o.heads + head) * o.rows + row)]));
      const double u = local[std::size_t(j * b.lanes + x)];
      const bool restart = segmented && b.starts[std::size_t(j)];
      h = restart ? u : a * h + u;
      seg_abs = restart ? std::fabs(u) : a * seg_abs + std::fabs(u);
      all_abs = a * all_abs + std::fabs(u);
      const double err = std::fabs(got[std::size_t(j * b.lanes + x)] - h);
      max_error = std::max(max_error, err);
      ok = ok && err <= 2e-6 * (unsegmented_scale ? all_abs : seg_abs);
    }
  }
  return ok;
}

struct timing {
  double median_us, min_us, max_us;
};

timing time_calls(const state_passing_options& o, const std::function<void()>& call) {
  for (int i = 0; i < o.warmup; ++i) call();
  std::vector<double> us;
  runtime::event_timer t;
  for (int r = 0; r < o.reps; ++r) {
    t.start(nullptr);
    for (int c = 0; c < o.calls; ++c) call();
    t.stop(nullptr);
    us.push_back(1e3 * t.elapsed_ms() / o.calls);
  }
  std::sort(us.begin(), us.end());
  return {us[us.size() / 2], us.front(), us.back()};
}

}  // namespace

int run_state_passing_bench(const state_passing_options& o, std::ostream& os) {
  const batch b = make_batch(o);
  const std::size_t n = b.local.size();
  const state_passing_shape shape{b.chunks, o.heads, o.rows, o.cols, decay_layout::per_row,
                                  std::int64_t(o.heads) * o.rows, o.rows};
  std::vector<std::uint16_t> local_bf16(n);
  std::vector<float> rounded(n);
  for (std::size_t i = 0; i < n; ++i) {
    local_bf16[i] = to_bf16_bits(b.local[i]);
    rounded[i] = from_bf16_bits(local_bf16[i]);
  }
  runtime::device_buffer d_local(n * 4), d_bf16(n * 2), d_out(n * 4), d_decay(b.log_decay.size() * 4), d_starts(b.starts.size()),
      d_offsets(b.offsets.size() * 8);
  runtime::check(cudaMemcpy(d_local.get(), b.local.data(), n * 4, cudaMemcpyHostToDevice), "upload");
  runtime::check(cudaMemcpy(d_bf16.get(), local_bf16.data(), n * 2, cudaMemcpyHostToDevice), "upload");
  runtime::check(cudaMemcpy(d_decay.get(), b.log_decay.data(), b.log_decay.size() * 4, cudaMemcpyHostToDevice), "upload");
  runtime::check(cudaMemcpy(d_starts.get(), b.starts.data(), b.starts.size(), cudaMemcpyHostToDevice), "upload");
  runtime::check(cudaMemcpy(d_offsets.get(), b.offsets.data(), b.offsets.size() * 8, cudaMemcpyHostToDevice), "upload");

  const timing copy = time_calls(o, [&] {
    runtime::check(cudaMemcpyAsync(d_out.get(), d_local.get(), n * 4, cudaMemcpyDeviceToDevice, nullptr), "copy");
  });
  const double copy_gbs = 2.0 * n * 4 / (copy.median_us * 1e3);
  struct row {
    std::string name, dtype;
    timing t;
    double bytes, max_error;
    bool verified;
  };
  std::vector<row> rows;
  auto measure = [&](const std::string& name, bool bf16, bool segmented, bool speculative,
                     const std::function<void()>& call) {
    call();
    runtime::check(cudaDeviceSynchronize(), name);
    std::vector<float> got(n);
    runtime::check(cudaMemcpy(got.data(), d_out.get(), n * 4, cudaMemcpyDeviceToHost), "download");
    double err = 0;
    const bool ok = verify(b, o, bf16 ? rounded : b.local, got, segmented, speculative || !segmented, err);
    const timing t = time_calls(o, call);
    rows.push_back({name, bf16 ? "bf16" : "fp32", t, double(n) * (bf16 ? 6 : 8), err, ok});
    const row& r = rows.back();
    os << name << " " << r.dtype << ": " << t.median_us << " us (min " << t.min_us << "), "
       << r.bytes / (t.median_us * 1e3) / copy_gbs * 100 << "% of copy, max error " << err
       << (ok ? "" : "  FAILED") << "\n";
  };
  const std::pair<const char*, method> methods[] = {
      {"cuda_core", method::cuda_core}, {"tensor_core", method::tensor_core},
      {"tensor_core_speculative", method::tensor_core_speculative}};
  for (bool bf16 : {false, true})
    for (const auto& [name, m] : methods)
      measure(name, bf16, true, m == method::tensor_core_speculative, [&, m = m] {
        if (bf16)
          state_passing(d_bf16.as<std::uint16_t>(), d_decay.as<float>(), d_starts.as<std::uint8_t>(), d_out.as<float>(),
                        shape, m);
        else
          state_passing(d_local.as<float>(), d_decay.as<float>(), d_starts.as<std::uint8_t>(), d_out.as<float>(), shape, m);
      });
  measure("tensor_core_unsegmented", false, false, false, [&] {
    state_passing(d_local.as<float>(), d_decay.as<float>(), nullptr, d_out.as<float>(), shape, method::tensor_core);
  });
  measure("per_sequence", false, true, false, [&] {
    state_passing_per_sequence(d_local.as<float>(), d_decay.as<float>(), d_offsets.as<std::int64_t>(), o.sequences,
                               d_out.as<float>(), shape);
  });

  runtime::device_info dev;
  std::string why;
  runtime::current_device(dev, why);
  if (!o.out_path.empty()) {
    json j;
    j["schema"] = "mmvram-gpu-state-passing/1";
    j["device"] = dev.name;
    j["shape"] = {{"sequences", o.sequences}, {"chunks", b.chunks}, {"heads", o.heads}, {"rows", o.rows},
                  {"cols", o.cols}, {"chunk_tokens", o.chunk_tokens}, {"mu", o.mu}, {"sigma", o.sigma},
                  {"seed", o.seed}, {"calls_per_timing", o.calls}};
    j["copy_gb_per_s"] = copy_gbs, j["copy_median_us"] = copy.median_us;
    json out_rows = json::array();
    for (const row& r : rows)
      out_rows.push_back({{"method", r.name}, {"dtype", r.dtype}, {"median_us", r.t.median_us}, {"min_us", r.t.min_us},
                          {"max_us", r.t.max_us}, {"bytes", r.bytes},
                          {"useful_states_per_s", double(n) / (r.t.median_us * 1e-6)},
                          {"percent_of_copy", r.bytes / (r.t.median_us * 1e3) / copy_gbs * 100},
                          {"max_abs_error_sampled", r.max_error}, {"verified", r.verified}});
    j["rows"] = std::move(out_rows);
    write_json_file(o.out_path, j);
  }
  return std::all_of(rows.begin(), rows.end(), [](const row& r) { return r.verified; }) ? 0 : 1;
}

}  // namespace mmv::tool::kernels
