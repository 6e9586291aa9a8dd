// The CUDA-core state propagation (state_passing.hpp) where its calls share the device: captured
// into a CUDA graph and replayed with new inputs in the same buffers, and called from two host
// threads on two streams while a third stream runs a long unrelated kernel. Every result is
// checked against the float64 sequential loop on the host.
#include <cmath>
#include <cstdint>
#include <exception>
#include <thread>
#include <vector>

#include "catch.hpp"
#include "test_seed.hpp"
#include "mmvram/gpu/runtime/buffer.hpp"
#include "mmvram/gpu/runtime/device.hpp"
#include "mmvram/gpu/runtime/stream.hpp"
#include "kernel_inputs.hpp"
#include "state_passing_reference.hpp"
#include "mmvram/gpu/state_passing.hpp"
#include "mmvram/harness/random_inputs.hpp"

namespace {

using namespace mmv::gpu;
using problem = mmv::tool::kernels::state_passing_problem;
using mmv::tool::kernels::kStatePassingTolerance;

// A random problem (fp32 data, or data rounded to bf16 when bf16).
problem make(std::int64_t g, int h, int n, int v, decay_layout d, double rate, bool bf16, std::uint64_t seed) {
  auto p = mmv::tool::kernels::make_state_passing_problem(g, h, n, v, d, rate, mmv::inputs::mix64(seed));
  if (bf16)
    for (auto& x : p.local) x = mmv::tool::kernels::from_bf16_bits(mmv::tool::kernels::to_bf16_bits(float(x)));
  return p;
}

// Device buffers for problems of one shape: put() copies a problem's inputs in (and waits),
// run() queues the CUDA-core method, get() waits for the stream and copies the states out.
struct buffers {
  runtime::device_buffer local, decay, starts, out;
  explicit buffers(const problem& p)
      : local(p.local.size() * 4), decay(p.log_decay.size() * 4), starts(p.starts.size()), out(p.local.size() * 4) {}

  void put(const problem& p, bool bf16, cudaStream_t s) const {
    std::vector<float> u(p.local.begin(), p.local.end()), l(p.log_decay.begin(), p.log_decay.end());
    std::vector<std::uint16_t> u16(p.local.size());
    for (std::size_t i = 0; i < u16.size(); ++i) u16[i] = mmv::tool::kernels::to_bf16_bits(u[i]);
    copy_in(local.get(), bf16 ? static_cast<const void*>(u16.data()) : u.data(), u.size() * (bf16 ? 2 : 4), s);
    copy_in(decay.get(), l.data(), l.size() * 4, s);
    copy_in(starts.get(), p.starts.data(), p.starts.size(), s);
    runtime::check(cudaStreamSynchronize(s), "put");
  }
  void run(const problem& p, bool bf16, cudaStream_t s) const {
    if (bf16)
      state_passing(local.as<std::uint16_t>(), decay.as<float>(), starts.as<std::uint8_t>(), out.as<float>(), p.shape,
                    state_passing_method::cuda_core, s);
    else
      state_passing(local.as<float>(), decay.as<float>(), starts.as<std::uint8_t>(), out.as<float>(), p.shape,
                    state_passing_method::cuda_core, s);
  }
  std::vector<float> get(cudaStream_t s) const {
    std::vector<float> h(out.bytes() / 4);
    runtime::check(cudaMemcpyAsync(h.data(), out.get(), out.bytes(), cudaMemcpyDeviceToHost, s), "get");
    runtime::check(cudaStreamSynchronize(s), "get");
    return h;
  }

 private:
  static void copy_in(void* dst, const void* src, std::size_t bytes, cudaStream_t s) {
    runtime::check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, s), "put");
  }
};

void require_matches(const problem& p, const std::vector<float>& got) {
  std::vector<double> want, bound;
  mmv::tool::kernels::state_passing_reference(p, want, bound);
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("index " << i << " got " << got[i] << " want " << want[i]);
    REQUIRE(std::fabs(got[i] - want[i]) <= kStatePassingTolerance * (bound[i] + 1e-30));
  }
}

struct shape_case {
  std::int64_t g;
  int h, n, v;
  decay_layout d;
};

}  // namespace

// Captured on a non-default stream (global capture mode, as PyTorch's graphs), replayed four times
// with new local states, decays and starts written into the same buffers between replays, and an
// uncaptured call on the same stream after each replay. Shapes: 256 lane groups (one chain per
// lane group) and 4 (reduce-then-scan, its temporary memory allocated inside the graph).
TEST_CASE("the CUDA-core method replays from a CUDA graph with new inputs", "[state_passing]") {
  const std::uint64_t seed = mmv::test::fresh_seed();
  INFO("seed " << seed);
  std::uint64_t problem_seed = seed;
  const runtime::stream s;
  for (const shape_case& c : {shape_case{300, 8, 16, 64, decay_layout::per_head}, shape_case{200, 2, 2, 32, decay_layout::per_row}})
    for (bool bf16 : {false, true}) {
      INFO("G " << c.g << " lanes " << c.h * c.n * c.v << " bf16 " << bf16);
      const problem shape = make(c.g, c.h, c.n, c.v, c.d, 0.0, bf16, ++problem_seed);
      const buffers b(shape);
      cudaGraph_t graph = nullptr;
      cudaGraphExec_t exec = nullptr;
      runtime::check(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), "cudaStreamBeginCapture");
      b.run(shape, bf16, s);
      runtime::check(cudaStreamEndCapture(s, &graph), "cudaStreamEndCapture");
      runtime::check(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
      for (double rate : {0.0, 0.05, 0.3, 1.0}) {
        INFO("start rate " << rate);
        const problem p = make(c.g, c.h, c.n, c.v, c.d, rate, bf16, ++problem_seed);
        b.put(p, bf16, s);
        runtime::check(cudaGraphLaunch(exec, s), "cudaGraphLaunch");
        require_matches(p, b.get(s));
        const problem q = make(c.g, c.h, c.n, c.v, c.d, rate, bf16, ++problem_seed);
        b.put(q, bf16, s);
        b.run(q, bf16, s);
        require_matches(q, b.get(s));
      }
      runtime::check(cudaGraphExecDestroy(exec), "cudaGraphExecDestroy");
      runtime::check(cudaGraphDestroy(graph), "cudaGraphDestroy");
    }
}

// Two host threads, each on its own stream, call the method six times on shapes that differ
// between the threads and between calls (the look-back words grow), while a third stream runs a
// hundred tensor-core propagations over 4,096 chunks × 8,192 lanes (tens of milliseconds) queued
// just before. Inputs and buffers are made beforehand, so the threads only copy, call and wait.
TEST_CASE("the CUDA-core method from two host threads beside a long kernel", "[state_passing]") {
  const std::uint64_t seed = mmv::test::fresh_seed();
  INFO("seed " << seed);
  const shape_case shapes[2][2] = {{{600, 4, 4, 64, decay_layout::per_row}, {229, 2, 2, 32, decay_layout::per_row}},
                                   {{1000, 2, 16, 64, decay_layout::per_head}, {97, 1, 2, 32, decay_layout::per_head}}};
  constexpr int kCalls = 6;
  std::vector<problem> problems[2];
  std::vector<buffers> space[2];
  std::vector<std::vector<float>> results[2];
  std::exception_ptr failure[2];
  for (int t = 0; t < 2; ++t)
    for (int k = 0; k < kCalls; ++k) {
      const shape_case& c = shapes[t][k % 2];
      problems[t].push_back(make(c.g, c.h, c.n, c.v, c.d, 0.02 * k, k / 2 % 2 == 1, seed + 100 * t + k));
      space[t].emplace_back(problems[t].back());
    }
  const state_passing_shape big{4096, 8, 16, 64, decay_layout::per_head, 8, 1};
  const runtime::device_buffer big_local{std::size_t(4096) * 8192 * 4}, big_out{big_local.bytes()};
  const runtime::device_buffer big_decay{std::size_t(4096) * 8 * 4};
  runtime::check(cudaMemset(big_local.get(), 0, big_local.bytes()), "memset");
  runtime::check(cudaMemset(big_decay.get(), 0, big_decay.bytes()), "memset");
  const runtime::stream busy, streams[2];
  runtime::check(cudaDeviceSynchronize(), "memset");
  for (int i = 0; i < 100; ++i)
    state_passing(big_local.as<float>(), big_decay.as<float>(), nullptr, big_out.as<float>(), big,
                  state_passing_method::tensor_core, busy);
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t)
    threads.emplace_back([&, t] {
      try {
        for (int k = 0; k < kCalls; ++k) {
          const bool bf16 = k / 2 % 2 == 1;
          space[t][k].put(problems[t][k], bf16, streams[t]);
          space[t][k].run(problems[t][k], bf16, streams[t]);
          results[t].push_back(space[t][k].get(streams[t]));
        }
      } catch (...) {
        failure[t] = std::current_exception();
      }
    });
  for (auto& th : threads) th.join();
  const bool overlapped = cudaStreamQuery(busy) == cudaErrorNotReady;
  busy.synchronize();
  INFO("the long kernel still ran when the threads finished: " << overlapped);
  for (int t = 0; t < 2; ++t) {
    if (failure[t]) std::rethrow_exception(failure[t]);
    REQUIRE(results[t].size() == std::size_t(kCalls));
    for (int k = 0; k < kCalls; ++k) {
      INFO("thread " << t << " call " << k);
      require_matches(problems[t][k], results[t][k]);
    }
  }
}
