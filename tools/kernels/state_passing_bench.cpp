// mmvram kernels state-passing (state_passing_bench.hpp).
#include "state_passing_bench.hpp"

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <vector>

#include "mmvram/gpu/runtime/buffer.hpp"
#include "mmvram/gpu/runtime/device.hpp"
#include "mmvram/gpu/runtime/stream.hpp"
#include "kernel_inputs.hpp"
#include "json_file.hpp"
#include "mmvram/gpu/state_passing.hpp"
#include "mmvram/harness/kernel_reference.hpp"
#include "state_passing_reference.hpp"
#include "timing.hpp"

namespace mmv::tool::kernels {

namespace {

using method = state_passing_method;

// Every 97th lane against the float64 recurrence of p (state_passing_lane) under the kernels'
// one check (kernel_reference::verify_state_passing), scaled by the same recurrence on |u|
// (restarting at the starts, or not when `unsegmented_scale`); max_error: the largest error.
bool verify(const inputs::state_passing_problem& p, const std::vector<float>& got, bool segmented,
            bool unsegmented_scale, double& max_error) {
  const std::int64_t lanes = p.lanes();
  bool ok = true;
  max_error = 0;
  for (std::int64_t x = 0; x < lanes; x += 97) {
    const inputs::lane_states r = state_passing_lane(p, x, segmented);
    const auto v = kernel_reference::verify_state_passing(got.data() + x, lanes, r.h.data(),
                                                          (unsegmented_scale ? r.unsegmented : r.bound).data(), p.chunks);
    max_error = std::max(max_error, v.max_error);
    ok = ok && v.pass;
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
  return {median(us), *std::min_element(us.begin(), us.end()), *std::max_element(us.begin(), us.end())};
}

}  // namespace

int run_state_passing_bench(const state_passing_options& o, std::ostream& os) {
  // The batch, rounded to what the kernels read (fp32, and bf16 local states for the bf16 rows),
  // so the float64 reference starts from the same values.
  const std::vector<std::int64_t> offsets =
      inputs::lognormal_chunk_offsets(o.sequences, o.mu, o.sigma, o.chunk_tokens, o.seed);
  inputs::state_passing_problem p = inputs::packed_state_passing(offsets, {o.heads, o.rows, o.cols, false}, o.seed);
  for (auto& x : p.local) x = float(x);
  for (auto& x : p.log_decay) x = float(x);
  const state_passing_shape shape = kernel_shape(p);
  const std::size_t n = p.local.size();
  const std::vector<float> local(p.local.begin(), p.local.end()), log_decay(p.log_decay.begin(), p.log_decay.end());
  std::vector<std::uint16_t> local_bf16(n);
  inputs::state_passing_problem rounded = p;
  for (std::size_t i = 0; i < n; ++i) {
    local_bf16[i] = to_bf16_bits(local[i]);
    rounded.local[i] = from_bf16_bits(local_bf16[i]);
  }
  runtime::device_buffer d_local(n * 4), d_bf16(n * 2), d_out(n * 4), d_decay(log_decay.size() * 4), d_starts(p.starts.size()),
      d_offsets(offsets.size() * 8);
  runtime::check(cudaMemcpy(d_local.get(), local.data(), n * 4, cudaMemcpyHostToDevice), "upload");
  runtime::check(cudaMemcpy(d_bf16.get(), local_bf16.data(), n * 2, cudaMemcpyHostToDevice), "upload");
  runtime::check(cudaMemcpy(d_decay.get(), log_decay.data(), log_decay.size() * 4, cudaMemcpyHostToDevice), "upload");
  runtime::check(cudaMemcpy(d_starts.get(), p.starts.data(), p.starts.size(), cudaMemcpyHostToDevice), "upload");
  runtime::check(cudaMemcpy(d_offsets.get(), offsets.data(), offsets.size() * 8, cudaMemcpyHostToDevice), "upload");

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
    const bool ok = verify(bf16 ? rounded : p, got, segmented, speculative || !segmented, err);
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
    j["shape"] = {{"sequences", o.sequences}, {"chunks", p.chunks}, {"heads", o.heads}, {"rows", o.rows},
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
