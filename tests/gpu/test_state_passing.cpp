// The inter-chunk state propagation (state_passing.hpp) against a float64 sequential loop on the
// host: every method, both decay layouts, fp32/bf16/fp64 data, edge shapes, starts anywhere,
// unaligned pointers, leakage across sequences, non-finite values and more than 2^31 elements.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
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
using runtime::device_buffer;
using method = state_passing_method;

using problem = mmv::tool::kernels::state_passing_problem;
using mmv::tool::kernels::kStatePassingTolerance;
using mmv::tool::kernels::state_passing_reference;

template <class T>
std::vector<T> converted(const std::vector<double>& x) {
  return std::vector<T>(x.begin(), x.end());
}

template <class T>
runtime::device_buffer upload(const std::vector<T>& x, std::size_t offset_elems = 0) {
  runtime::device_buffer d((x.size() + offset_elems) * sizeof(T) + 1);
  if (!x.empty())
    runtime::check(cudaMemcpy(d.as<T>() + offset_elems, x.data(), x.size() * sizeof(T), cudaMemcpyHostToDevice), "upload");
  return d;
}

template <class T>
std::vector<T> download(const T* d, std::size_t n) {
  std::vector<T> x(n);
  if (n) runtime::check(cudaMemcpy(x.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost), "download");
  return x;
}

// Runs one method on fp32 (or bf16-rounded) data, `offset` elements past aligned pointers, on
// `stream` (no_starts: starts passed as nullptr).
std::vector<float> run_f32(const problem& p, method m, bool bf16, std::size_t offset = 0, cudaStream_t stream = nullptr,
                           bool no_starts = false) {
  const auto decay = upload(converted<float>(p.log_decay));
  const auto starts = upload(p.starts);
  runtime::device_buffer out((p.local.size() + offset) * sizeof(float) + 1);
  const std::uint8_t* flags = no_starts ? nullptr : starts.as<std::uint8_t>();
  if (bf16) {
    std::vector<std::uint16_t> u(p.local.size());
    for (std::size_t i = 0; i < u.size(); ++i) u[i] = mmv::tool::kernels::to_bf16_bits(float(p.local[i]));
    const auto local = upload(u, offset);
    state_passing(local.as<std::uint16_t>() + offset, decay.as<float>(), flags, out.as<float>() + offset, p.shape, m,
                  stream);
  } else {
    const auto local = upload(converted<float>(p.local), offset);
    state_passing(local.as<float>() + offset, decay.as<float>(), flags, out.as<float>() + offset, p.shape, m, stream);
  }
  runtime::check(cudaDeviceSynchronize(), "state_passing");
  return download(out.as<float>() + offset, p.local.size());
}

void require_close(const std::vector<float>& got, const std::vector<double>& want, const std::vector<double>& bound,
                   double rel) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("index " << i << " got " << got[i] << " want " << want[i]);
    REQUIRE(std::fabs(got[i] - want[i]) <= rel * (bound[i] + 1e-30));
  }
}

const method kFloatMethods[] = {method::cuda_core, method::tensor_core, method::tensor_core_speculative};

using mmv::test::fresh_seed;  // fresh per test case (or MMV_TEST_SEED), printed with every failure

}  // namespace

TEST_CASE("state passing matches the float64 loop on fresh random inputs", "[state_passing]") {
  const std::uint64_t seed = fresh_seed();
  INFO("seed " << seed);
  std::uint64_t problem_seed = seed;
  struct shape_case { std::int64_t g; int h, n, v; decay_layout d; };
  const shape_case shapes[] = {{0, 1, 1, 32, decay_layout::per_row},  {1, 2, 2, 32, decay_layout::per_row},
                               {15, 1, 3, 64, decay_layout::per_row}, {16, 2, 1, 32, decay_layout::per_head},
                               {17, 3, 4, 8, decay_layout::per_head}, {513, 2, 4, 64, decay_layout::per_row},
                               {300, 1, 16, 64, decay_layout::per_head}};
  for (const auto& s : shapes)
    for (double rate : {0.0, 0.05, 0.3, 1.0})
      for (bool bf16 : {false, true}) {
        auto p = mmv::tool::kernels::make_state_passing_problem(s.g, s.h, s.n, s.v, s.d, rate,
                                                                mmv::inputs::mix64(++problem_seed));
        if (bf16)
          for (auto& x : p.local) x = mmv::tool::kernels::from_bf16_bits(mmv::tool::kernels::to_bf16_bits(float(x)));
        std::vector<double> want, bound, unsegmented;
        state_passing_reference(p, want, bound, &unsegmented);
        for (method m : kFloatMethods) {
          INFO("G " << s.g << " lanes " << p.lanes() << " start rate " << rate << " bf16 " << bf16 << " method " << int(m));
          const auto& scale = m == method::tensor_core_speculative ? unsegmented : bound;
          require_close(run_f32(p, m, bf16), want, scale, kStatePassingTolerance);
          require_close(run_f32(p, m, bf16, 1), want, scale, kStatePassingTolerance);  // unaligned pointers
        }
      }
}

// The CUDA-core method's split chain (segments of 16 chunks, four to a span, a decoupled
// look-back between spans): starts on and beside segment and span edges, sequences over many
// spans with slow decays (the carry crosses every segment), a start at every chunk, no starts at
// all (nullptr), spans with empty segments at the end, local states 16-, 4- and 2-byte aligned,
// calls one after another on two streams with other data and a smaller shape (stale look-back
// words).
TEST_CASE("the CUDA-core split chain carries states across its segments", "[state_passing]") {
  const std::uint64_t seed = fresh_seed();
  INFO("seed " << seed);
  const runtime::stream side;
  std::uint64_t problem_seed = seed;
  for (const std::int64_t g : {std::int64_t{229}, std::int64_t{64}, std::int64_t{1000}})
    for (int pattern = 0; pattern < 5; ++pattern)
      for (bool bf16 : {false, true}) {
        auto p = mmv::tool::kernels::make_state_passing_problem(g, 2, 2, 32, pattern == 4 ? decay_layout::per_head
                                                                                         : decay_layout::per_row,
                                                                0.0, mmv::inputs::mix64(++problem_seed));
        if (pattern <= 1)  // slow decays: the first chunks still count at the last
          for (auto& l : p.log_decay) l *= 0.01;
        if (pattern == 1)
          for (std::int64_t j : {15, 16, 17, 31, 32, 33, 63, 64, 65, 80, 127, 128, 191, 255, 256, 257})
            if (j < g) p.starts[j] = 1;
        if (pattern == 2) std::fill(p.starts.begin(), p.starts.end(), 1);
        if (pattern == 3)
          for (std::int64_t j = 1; j < g; j += 37) p.starts[j] = 1;
        if (bf16)
          for (auto& x : p.local) x = mmv::tool::kernels::from_bf16_bits(mmv::tool::kernels::to_bf16_bits(float(x)));
        std::vector<double> want, bound;
        state_passing_reference(p, want, bound);
        INFO("G " << g << " pattern " << pattern << " bf16 " << bf16);
        require_close(run_f32(p, method::cuda_core, bf16), want, bound, kStatePassingTolerance);
        require_close(run_f32(p, method::cuda_core, bf16, 0, side), want, bound, kStatePassingTolerance);
        if (pattern == 0)
          require_close(run_f32(p, method::cuda_core, bf16, 3, nullptr, true), want, bound, kStatePassingTolerance);
        if (pattern == 3)
          require_close(run_f32(p, method::cuda_core, bf16, 2), want, bound, kStatePassingTolerance);
      }
}

TEST_CASE("state passing in float64 and the per-sequence grid", "[state_passing]") {
  const std::uint64_t seed = fresh_seed();
  INFO("seed " << seed);
  auto p = mmv::tool::kernels::make_state_passing_problem(200, 2, 2, 32, decay_layout::per_row, 0.05, seed);
  std::vector<double> want, bound;
  state_passing_reference(p, want, bound);
  const auto local = upload(p.local), decay = upload(p.log_decay);
  const auto starts = upload(p.starts);
  runtime::device_buffer out(p.local.size() * sizeof(double));
  state_passing(local.as<double>(), decay.as<double>(), starts.as<std::uint8_t>(), out.as<double>(), p.shape,
                method::cuda_core);
  const auto got = download(out.as<double>(), p.local.size());
  for (std::size_t i = 0; i < got.size(); ++i) REQUIRE(std::fabs(got[i] - want[i]) <= 1e-13 * bound[i]);
  REQUIRE_THROWS_AS(state_passing(local.as<double>(), decay.as<double>(), starts.as<std::uint8_t>(), out.as<double>(),
                                  p.shape, method::tensor_core),
                    cuda_error);

  std::vector<std::int64_t> offsets;  // the sequences the starts define
  for (std::int64_t j = 0; j < p.shape.chunks; ++j)
    if (p.starts[j]) offsets.push_back(j);
  offsets.push_back(p.shape.chunks);
  const auto d_offsets = upload(offsets);
  const auto local32 = upload(converted<float>(p.local)), decay32 = upload(converted<float>(p.log_decay));
  runtime::device_buffer out32(p.local.size() * sizeof(float));
  state_passing_per_sequence(local32.as<float>(), decay32.as<float>(), d_offsets.as<std::int64_t>(),
                             std::int64_t(offsets.size()) - 1, out32.as<float>(), p.shape);
  const auto per_sequence = download(out32.as<float>(), p.local.size());
  require_close(per_sequence, want, bound, kStatePassingTolerance);

  // Final states, with the tails of boundaries inside chunks.
  const std::int64_t sequences = std::int64_t(offsets.size()) - 1, lanes = p.lanes();
  std::vector<double> tail(std::size_t(sequences * lanes)), tail_l(std::size_t(sequences * 2 * 2));
  mmv::inputs::stream d(mmv::inputs::mix64(seed));
  for (auto& x : tail) x = mmv::inputs::normal_sum12(d);
  for (auto& x : tail_l) x = -d.unit();
  const auto d_tail = upload(converted<float>(tail)), d_tail_l = upload(converted<float>(tail_l));
  runtime::device_buffer finals(tail.size() * sizeof(float));
  for (bool with_tail : {false, true}) {
    state_passing_finals(out32.as<float>(), d_offsets.as<std::int64_t>(), sequences, with_tail ? d_tail.as<float>() : nullptr,
                         with_tail ? d_tail_l.as<float>() : nullptr, finals.as<float>(), p.shape);
    const auto f = download(finals.as<float>(), tail.size());
    for (std::int64_t k = 0; k < sequences; ++k)
      for (std::int64_t x = 0; x < lanes; ++x) {
        double w = want[(offsets[k + 1] - 1) * lanes + x];
        const double b = bound[(offsets[k + 1] - 1) * lanes + x] + 4;
        if (with_tail) w = std::exp(tail_l[(k * 2 + x / 64) * 2 + x % 64 / 32]) * w + tail[k * lanes + x];
        REQUIRE(std::fabs(f[k * lanes + x] - w) <= kStatePassingTolerance * b);
      }
  }
}

// The CUDA-core and masked tensor-core methods never read another sequence's data: bit-identical
// results. The speculative repair subtracts the previous sequence's contribution, so its results
// move at rounding level (within the unsegmented magnitude's tolerance) but no further.
TEST_CASE("state passing never leaks across sequence starts", "[state_passing]") {
  const std::uint64_t seed = fresh_seed();
  INFO("seed " << seed);
  auto p = mmv::tool::kernels::make_state_passing_problem(96, 1, 2, 32, decay_layout::per_row, 0.0, seed);
  for (std::int64_t j : {0, 7, 16, 40, 41, 70}) p.starts[j] = 1;  // sequence 2 is chunks 16..39
  std::vector<double> want, bound, unsegmented;
  state_passing_reference(p, want, bound, &unsegmented);
  for (method m : kFloatMethods) {
    INFO("method " << int(m));
    const auto before = run_f32(p, m, false);
    auto q = p;
    for (std::int64_t j = 16; j < 40; ++j)
      for (std::int64_t x = 0; x < q.lanes(); ++x) q.local[j * q.lanes() + x] *= 3.5;
    const auto after = run_f32(q, m, false);
    for (std::int64_t j = 0; j < p.shape.chunks; ++j)
      for (std::int64_t x = 0; x < p.lanes(); ++x) {
        const auto i = std::size_t(j * p.lanes() + x);
        INFO("chunk " << j << " lane " << x);
        if (j >= 16 && j < 40) REQUIRE(before[i] != after[i]);
        else if (m != method::tensor_core_speculative) REQUIRE(std::memcmp(&before[i], &after[i], 4) == 0);
        else REQUIRE(std::fabs(after[i] - want[i]) <= kStatePassingTolerance * unsegmented[i]);
      }
  }
}

// A non-finite local state stays in its sequence on the CUDA cores, spreads to the rest of its
// 16-chunk tile on the masked tensor-core method (0 × inf = NaN in the product), and on the
// speculative one to the later chunks of its segment (the repair subtracts inf from inf).
TEST_CASE("a non-finite local state stays in its sequence (CUDA cores) or its tile (tensor cores)",
          "[state_passing]") {
  const std::uint64_t seed = fresh_seed();
  INFO("seed " << seed);
  auto p = mmv::tool::kernels::make_state_passing_problem(128, 1, 1, 32, decay_layout::per_row, 0.0, seed);  // cut into segments
  p.starts[20] = p.starts[36] = 1;
  p.local[22 * 32 + 5] = INFINITY;  // chunk 22, lane 5: sequence 20..35
  std::vector<double> want, bound;
  state_passing_reference(p, want, bound);
  for (method m : kFloatMethods) {
    INFO("method " << int(m));
    const auto got = run_f32(p, m, false);
    for (std::int64_t j = 0; j < 128; ++j) {
      INFO("chunk " << j);
      const float g = got[j * 32 + 5];
      if (j >= 22 && j < 36) {
        REQUIRE(!std::isfinite(g));
      } else if (m == method::cuda_core || (m == method::tensor_core && (j < 16 || j >= 32)) || j < 16) {
        REQUIRE(std::fabs(g - want[j * 32 + 5]) <= kStatePassingTolerance * bound[j * 32 + 5]);
      }
    }
  }
}

TEST_CASE("per-head decays read where mamba keeps them: [H][G], chunk stride 1", "[state_passing]") {
  const std::uint64_t seed = fresh_seed();
  INFO("seed " << seed);
  auto p = mmv::tool::kernels::make_state_passing_problem(77, 3, 2, 32, decay_layout::per_head, 0.1, seed);
  std::vector<double> want, bound, unsegmented;
  state_passing_reference(p, want, bound, &unsegmented);
  std::vector<float> head_major(p.log_decay.size());  // [H][G]
  for (std::int64_t j = 0; j < p.shape.chunks; ++j)
    for (int h = 0; h < p.shape.heads; ++h) head_major[h * p.shape.chunks + j] = float(p.log_decay[j * p.shape.heads + h]);
  auto shape = p.shape;
  shape.chunk_stride = 1;
  shape.head_stride = p.shape.chunks;
  const auto local = upload(converted<float>(p.local)), decay = upload(head_major);
  const auto starts = upload(p.starts);
  runtime::device_buffer out(p.local.size() * sizeof(float));
  for (method m : kFloatMethods) {
    INFO("method " << int(m));
    state_passing(local.as<float>(), decay.as<float>(), starts.as<std::uint8_t>(), out.as<float>(), shape, m);
    require_close(download(out.as<float>(), p.local.size()), want,
                  m == method::tensor_core_speculative ? unsegmented : bound, kStatePassingTolerance);
  }
}

TEST_CASE("state passing refuses bad shapes with an error", "[state_passing]") {
  state_passing_shape s{4, 1, 2, 16, decay_layout::per_row, 2, 2};
  runtime::device_buffer d(4096);
  REQUIRE_THROWS_AS(state_passing(d.as<float>(), d.as<float>(), nullptr, d.as<float>(), s, method::cuda_core), cuda_error);
  s.cols = 32;
  s.heads = 0;
  REQUIRE_THROWS_AS(state_passing(d.as<float>(), d.as<float>(), nullptr, d.as<float>(), s, method::tensor_core), cuda_error);
  s.heads = 1;
  REQUIRE_THROWS_AS(state_passing(static_cast<const float*>(nullptr), d.as<float>(), nullptr, d.as<float>(), s,
                                  method::tensor_core),
                    cuda_error);
  const state_passing_shape head{4, 1, 3, 8, decay_layout::per_head, 1, 1};  // N·V = 24
  REQUIRE_THROWS_AS(state_passing(d.as<float>(), d.as<float>(), nullptr, d.as<float>(), head, method::cuda_core), cuda_error);
  REQUIRE_THROWS_AS(state_passing_per_sequence(d.as<float>(), d.as<float>(), d.as<std::int64_t>(), 70000, d.as<float>(), s),
                    cuda_error);
}

TEST_CASE("state passing indexes past 2^31 elements", "[state_passing][big]") {
  // 1024 lanes × (2^21 + 17) chunks; local states and decays are byte patterns (memset): u =
  // 0x3c3c3c3c ≈ 0.0115 before chunk 2^21 − 5 and 0x3d3d3d3d ≈ 0.0463 from it (where a sequence
  // starts), l = 0xbcbcbcbc ≈ −0.0230; the output is filled with NaN bytes before every method.
  const std::int64_t g = (std::int64_t{1} << 21) + 17, lanes = 1024, total = g * lanes;
  std::size_t free_bytes = 0, total_bytes = 0;
  runtime::check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  if (free_bytes < std::size_t(total) * 8 + (std::size_t{1} << 30)) {
    WARN("not enough device memory for the 2^31-element case: not run");
    return;
  }
  const state_passing_shape s{g, 1, 1, 1024, decay_layout::per_row, 1, 1};
  const runtime::device_buffer local{std::size_t(total) * 4}, out{std::size_t(total) * 4}, decay{std::size_t(g) * 4};
  const runtime::device_buffer starts{std::size_t(g)};
  const std::int64_t restart = (std::int64_t{1} << 21) - 5;
  runtime::check(cudaMemset(local.get(), 0x3c, std::size_t(restart * lanes) * 4), "memset");
  runtime::check(cudaMemset(local.as<float>() + restart * lanes, 0x3d, std::size_t((g - restart) * lanes) * 4), "memset");
  runtime::check(cudaMemset(decay.get(), 0xbc, decay.bytes()), "memset");
  runtime::check(cudaMemset(starts.get(), 0, starts.bytes()), "memset");
  runtime::check(cudaMemset(starts.as<std::uint8_t>() + restart, 1, 1), "memset");
  float u, u_after, l;
  const std::uint32_t ub = 0x3c3c3c3cu, ub_after = 0x3d3d3d3du, lb = 0xbcbcbcbcu;
  std::memcpy(&u, &ub, 4);
  std::memcpy(&u_after, &ub_after, 4);
  std::memcpy(&l, &lb, 4);
  for (method m : kFloatMethods) {
    INFO("method " << int(m));
    runtime::check(cudaMemset(out.get(), 0xff, out.bytes()), "memset");
    state_passing(local.as<float>(), decay.as<float>(), starts.as<std::uint8_t>(), out.as<float>(), s, m);
    runtime::check(cudaDeviceSynchronize(), "state_passing");
    const auto tail = download(out.as<float>() + (restart - 3) * lanes, std::size_t(g - restart + 3) * lanes);
    double h_before = u / (1 - std::exp(double(l)));  // the fixed point, long reached
    for (std::int64_t j = restart - 3; j < g; ++j) {
      const double want =
          j < restart ? h_before : u_after * (1 - std::exp(double(l) * double(j - restart + 1))) / (1 - std::exp(double(l)));
      for (std::int64_t x : {std::int64_t{0}, std::int64_t{517}, lanes - 1})
        REQUIRE(std::fabs(tail[std::size_t((j - restart + 3) * lanes + x)] - want) <= 1e-4 * h_before);
    }
  }
}
