// Time and memory of the simulator against n: one benchmark per algorithm over n = 2^10..2^24
// (s = 16, integer words, DAG off, as `mmvram run` uses them). Reported per run: wall time,
// elements per second, the process's peak resident memory during the benchmark (`peak_rss_MiB`:
// freed heap is returned with malloc_trim and the kernel's high-water mark VmHWM is reset through
// /proc/self/clear_refs before each benchmark; the input vectors are included) and
// `bytes_per_element` = peak / n. Run: mmvram_bench --benchmark_filter=sscr
#include "mmvram/algorithms/scan.hpp"
#include "mmvram/algorithms/segmented.hpp"
#include "mmvram/algorithms/segmented_baselines.hpp"

#include <benchmark/benchmark.h>
#include <malloc.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace {

using segmented_fn = mmv::word_vec (*)(mmv::machine&, const mmv::word_vec&, const mmv::word_vec&);

struct input {
  std::vector<mmv::word> x, f;
};

// Values in [0, 100], a segment start with probability 1/32 (fixed LCG, so every run agrees).
input make_input(std::int64_t n) {
  input in{std::vector<mmv::word>(n), std::vector<mmv::word>(n)};
  std::uint64_t state = 12345;
  for (std::int64_t i = 0; i < n; ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    in.x[i] = static_cast<mmv::word>((state >> 33) % 101);
    in.f[i] = i == 0 || ((state >> 20) & 31) == 0;
  }
  return in;
}

// Returns freed heap to the kernel and resets the peak resident set size (Linux >= 4.0).
void reset_peak_rss() {
  malloc_trim(0);
  std::ofstream("/proc/self/clear_refs") << "5";
}

// Peak resident set size since the last reset, in MiB (VmHWM of /proc/self/status).
double peak_rss_mib() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;  // kB
  return 0;
}

void run_segmented(benchmark::State& state, segmented_fn algo) {
  const std::int64_t n = state.range(0);
  const input in = make_input(n);
  mmv::machine_config c;
  c.s = 16;
  c.record_dag = false;
  reset_peak_rss();
  for (auto _ : state) {
    mmv::machine m(c);
    auto out = m.read(algo(m, m.load(in.x), m.load(in.f)));
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * n);
  state.counters["peak_rss_MiB"] = peak_rss_mib();
  state.counters["bytes_per_element"] = peak_rss_mib() * 1048576.0 / static_cast<double>(n);
}

void run_scan(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const input in = make_input(n);
  mmv::machine_config c;
  c.s = 16;
  c.record_dag = false;
  reset_peak_rss();
  for (auto _ : state) {
    mmv::machine m(c);
    auto out = m.read(mmv::matmul_scan(m, m.load(in.x)));
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * n);
  state.counters["peak_rss_MiB"] = peak_rss_mib();
  state.counters["bytes_per_element"] = peak_rss_mib() * 1048576.0 / static_cast<double>(n);
}

void sizes(benchmark::internal::Benchmark* b) {
  for (std::int64_t n = 1 << 10; n <= (1 << 24); n *= 4) b->Arg(n);
  b->Unit(benchmark::kMillisecond)->UseRealTime();
}

}  // namespace

BENCHMARK_CAPTURE(run_segmented, sscr, &mmv::sscr_segmented_scan<mmv::word>)->Apply(sizes);
BENCHMARK_CAPTURE(run_segmented, scd, &mmv::scd_segmented_sum<mmv::word>)->Apply(sizes);
BENCHMARK_CAPTURE(run_segmented, block_sscr, &mmv::block_sscr_segmented_scan<mmv::word>)->Apply(sizes);
BENCHMARK_CAPTURE(run_segmented, schwartz, &mmv::schwartz_segmented_scan<mmv::word>)->Apply(sizes);
BENCHMARK(run_scan)->Name("matmul_scan")->Apply(sizes);

int main(int argc, char** argv) {
  // The same allocator settings as the mmvram tool (tools/main.cpp).
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
