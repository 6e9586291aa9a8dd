// mmvram kernels stress, the driver (stress.hpp): worker threads claim case seeds off one
// counter until the time or the case count runs out, each on its own non-blocking stream
// (stress_cases.hpp runs a case), beside the backend's thread and a load stream; the report
// and its JSON file (schema mmvram-gpu-stress/1).
#include "stress.hpp"

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>

#include "json_file.hpp"
#include "mmvram/gpu/api.hpp"
#include "mmvram/gpu/runtime/device.hpp"
#include "mmvram/gpu/runtime/stream.hpp"
#include "stress_cases.hpp"

namespace mmv::tool::kernels {
namespace {

// Shared between the workers: the clock, the counts and the first failures.
struct stress_state {
  stress_state(const stress_options& opt, std::ostream* l)
      : o(opt),
        deadline(std::chrono::steady_clock::now() +
                 std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(opt.seconds))),
        log(l) {}
  const stress_options& o;
  std::chrono::steady_clock::time_point deadline;
  std::atomic<std::int64_t> next_case{0};
  std::atomic<bool> stop{false};
  std::mutex mu;
  stress_report report;
  std::ostream* log;

  bool claim(std::uint64_t& case_seed) {
    if (stop || std::chrono::steady_clock::now() >= deadline) return false;
    const std::int64_t c = next_case++;
    if (o.max_cases > 0 && c >= o.max_cases) return false;
    case_seed = mix64(o.seed ^ mix64(std::uint64_t(c)));
    return true;
  }
  void record(const std::string& kernel, std::uint64_t case_seed, const std::string& failure) {
    std::lock_guard<std::mutex> lock(mu);
    ++report.cases;
    ++report.cases_by_kernel[kernel];
    if (failure.empty()) return;
    ++report.failures;
    ++report.failures_by_kernel[kernel];
    if (report.first_failures.size() < 32) report.first_failures.push_back({kernel, case_seed, failure});
    if (log) *log << "stress: FAIL " << kernel << " case seed " << case_seed << ": " << failure << std::endl;
  }
};

// A worker: claims cases until the stress ends and runs each, one in five a state-passing case
// (all when no fused kernel is selected), the others on a kernel of ks picked by its own stream.
void fused_worker(stress_state& st, const std::vector<const kernel_info*>& ks, std::size_t temp_size, int index) {
  runtime::stream stream;
  fused_buffers fb(st.o.min_n, st.o.max_n, temp_size);
  std::unique_ptr<state_buffers> sb;
  if (st.o.state_passing) sb = std::make_unique<state_buffers>();
  inputs::stream pick(mix64(st.o.seed + 0x5eed + std::uint64_t(index)));  // which kernel each case calls
  std::uint64_t case_seed = 0;
  while (st.claim(case_seed)) {
    std::string name, failure;
    try {
      if (sb && (ks.empty() || pick.integer(0, 4) == 0)) {
        failure = state_passing_case(case_seed, *sb, stream.get(), name);
      } else {
        const kernel_info& k = *ks[std::size_t(pick.integer(0, std::int64_t(ks.size()) - 1))];
        name = k.name;
        failure = fused_case(k, case_seed, fb, stream.get());
      }
    } catch (const cuda_error& e) {
      failure = std::string("ERROR: ") + e.what();
      if (cudaStreamSynchronize(stream.get()) != cudaSuccess) st.stop = true;  // a sticky error: stop all
    }
    st.record(name, case_seed, failure);
  }
}

// The backend's worker: claims cases and runs o.extra_case on each, recorded as o.extra_name.
void extra_worker(stress_state& st) {
  std::uint64_t case_seed = 0;
  while (st.claim(case_seed)) {
    std::string failure;
    try {
      failure = st.o.extra_case(case_seed);
    } catch (const std::exception& e) {
      failure = std::string("ERROR: ") + e.what();
    }
    st.record(st.o.extra_name, case_seed, failure);
  }
}

// Keeps the SMs busy until the stress ends: a 2^26-item scan, over and over, on its own stream.
void load_worker(stress_state& st) {
  constexpr std::int64_t n = std::int64_t{1} << 26;
  runtime::stream stream;
  runtime::device_buffer x(4 * std::size_t(n)), out(4 * std::size_t(n));
  runtime::check(cudaMemsetAsync(x.get(), 0, 4 * std::size_t(n), stream.get()), "cudaMemsetAsync");
  std::size_t tb = 0;
  matmul_scan(x.as<float>(), out.as<float>(), n, nullptr, tb, stream.get());
  runtime::device_buffer temp(tb);
  while (!st.stop && std::chrono::steady_clock::now() < st.deadline) {
    matmul_scan(x.as<float>(), out.as<float>(), n, temp.get(), tb, stream.get());
    runtime::check(cudaStreamSynchronize(stream.get()), "load");
  }
}

}  // namespace

stress_report run_stress(const stress_options& o, std::ostream* log) {
  std::string err;
  std::vector<const kernel_info*> ks;
  for (const kernel_info* k : select_kernels(o.kernels, err))
    if ((k->family == "ours" || k->family == "ablation") && k->unavailable.empty()) ks.push_back(k);
  if (ks.empty() && !o.state_passing) throw std::invalid_argument("stress: no fused kernel selected (" + err + ")");
  const std::size_t temp_size = temp_needed(ks, o.max_n);
  stress_state st(o, log);
  const auto begin = std::chrono::steady_clock::now();
  std::vector<std::thread> pool;
  std::mutex error_mu;
  std::string thread_error;
  auto guarded = [&](auto body) {
    return [&, body] {
      try {
        body();
      } catch (const std::exception& e) {
        std::lock_guard<std::mutex> lock(error_mu);
        thread_error = e.what();
        st.stop = true;
      }
    };
  };
  for (int i = 0; i < o.threads; ++i) pool.emplace_back(guarded([&, i] { fused_worker(st, ks, temp_size, i); }));
  if (o.extra_case) pool.emplace_back(guarded([&] { extra_worker(st); }));
  if (o.load) pool.emplace_back(guarded([&] { load_worker(st); }));
  for (auto& t : pool) t.join();
  if (!thread_error.empty()) throw cuda_error("stress: " + thread_error);
  st.report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  return st.report;
}

int run_stress_command(const stress_options& o, std::ostream& os) {
  runtime::device_info dev;
  std::string why;
  runtime::current_device(dev, why);
  os << "stress: " << o.threads << " threads" << (o.extra_case ? " + " + o.extra_name : std::string())
     << (o.load ? " + load" : "") << ", " << o.seconds << " s, n in [" << o.min_n << ", " << o.max_n << "], seed " << o.seed << " on "
     << dev.name << std::endl;
  const stress_report r = run_stress(o, &os);
  os << "stress: " << r.cases << " cases in " << r.seconds << " s, " << r.failures << " failed\n";
  for (const auto& [name, c] : r.cases_by_kernel) {
    const auto f = r.failures_by_kernel.find(name);
    os << "  " << name << ": " << c << " cases, " << (f == r.failures_by_kernel.end() ? 0 : f->second) << " failed\n";
  }
  if (!o.json_path.empty()) {
    json j = {{"schema", "mmvram-gpu-stress/1"}, {"gpu", dev.name},
              {"driver", runtime::cuda_version_string(dev.driver_version)}, {"seed", o.seed}, {"threads", o.threads},
              {"min_n", o.min_n}, {"max_n", o.max_n}, {"kernels", o.kernels}, {"state_passing", o.state_passing},
              {"load", o.load}, {"extra", o.extra_name}, {"seconds", r.seconds}, {"cases", r.cases},
              {"failures", r.failures}};
    json by_kernel = json::array(), first = json::array();
    for (const auto& [name, c] : r.cases_by_kernel) {
      const auto fi = r.failures_by_kernel.find(name);
      by_kernel.push_back({{"kernel", name}, {"cases", c},
                           {"failures", fi == r.failures_by_kernel.end() ? std::int64_t{0} : fi->second}});
    }
    for (const auto& fl : r.first_failures)
      first.push_back({{"kernel", fl.kernel}, {"case_seed", fl.case_seed}, {"detail", fl.detail}});
    j["by_kernel"] = std::move(by_kernel);
    j["first_failures"] = std::move(first);
    write_json_file(o.json_path, j);
  }
  return r.failures == 0 ? 0 : 1;
}

}  // namespace mmv::tool::kernels
