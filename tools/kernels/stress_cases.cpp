// mmvram kernels stress, its cases (stress_cases.hpp): the draws from a case seed, the fused
// kernels' and the state-passing kernels' runs on a worker's stream, and their checks.
#include "stress_cases.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

#include "mmvram/gpu/api.hpp"
#include "mmvram/gpu/tuning.hpp"
#include "mmvram/gpu/runtime/error.hpp"
#include "mmvram/harness/kernel_reference.hpp"
#include "state_passing_reference.hpp"

namespace mmv::tool::kernels {
namespace {

// Whether all `bytes` bytes at p still hold kPoison (a guard no kernel may write).
bool all_poison(const unsigned char* p, std::size_t bytes) {
  return std::all_of(p, p + bytes, [](unsigned char b) { return b == kPoison; });
}

// Sizes in [min_n, max_n]: a boundary of tiles of `tile` items +- 3 half the time, else log-uniform.
std::int64_t draw_n(inputs::stream& rng, std::int64_t min_n, std::int64_t max_n, std::int64_t tile) {
  if (rng.integer(0, 1) == 0 && max_n / tile > min_n / tile + 1) {
    const std::int64_t lo = min_n / tile + 1, span = max_n / tile - lo;
    const std::int64_t tiles = lo + rng.integer(0, std::max<std::int64_t>(1, span) - 1);
    return std::clamp<std::int64_t>(tiles * tile + rng.integer(-3, 3), min_n, max_n);
  }
  const double lo = std::log(double(min_n)), hi = std::log(double(max_n));
  return std::clamp<std::int64_t>(std::int64_t(std::exp(lo + (hi - lo) * rng.unit())), min_n, max_n);
}

// One of the standard distributions or a few more (means 2, 8 and a tile, fixed at a tile).
distribution draw_distribution(inputs::stream& rng) {
  static const std::vector<distribution> all = [] {
    auto d = standard_distributions();
    d.push_back({distribution::kind::geometric, 2});
    d.push_back({distribution::kind::geometric, 8});
    d.push_back({distribution::kind::geometric, 16384});
    d.push_back({distribution::kind::fixed, 16384});
    return d;
  }();
  return all[std::size_t(rng.integer(0, std::int64_t(all.size()) - 1))];
}

// What the look-back left in temp: tiles of `tile` items per status and the tile counter
// (diagnostics; the counter follows descriptors for n + 15 items in the fewest items per tile of
// any tile policy candidate: gpu/kernels/src/launch.hpp).
std::string descriptor_summary(const void* temp, std::size_t temp_bytes, std::int64_t n, std::int64_t tile,
                               bool two_chains, cudaStream_t stream) {
  std::int64_t fewest = tile;
  for (const auto k : mmv::gpu::tuning::kKernels)
    for (const auto& p : mmv::gpu::tuning::candidates(k)) fewest = std::min(fewest, p.tile_items());
  const std::int64_t tiles = (n + tile - 1) / tile;
  const std::size_t word_bytes = two_chains ? 16 : 8;
  const std::size_t desc = (std::size_t((n + 15 + fewest - 1) / fewest) * word_bytes + 255) / 256 * 256;
  if (desc + 8 > temp_bytes) return "";
  std::vector<std::uint64_t> h(desc / 8 + 1);
  runtime::check(cudaMemcpyAsync(h.data(), temp, desc + 8, cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
  runtime::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  std::int64_t status[4] = {};
  for (std::int64_t t = 0; t < tiles; ++t) ++status[(h[std::size_t(t) * (word_bytes / 8)] >> 32) & 3u];
  std::ostringstream os;
  os << "; tiles " << tiles << ": invalid " << status[0] << ", aggregate " << status[1] << ", prefix " << status[2]
     << ", other " << status[3] << "; tile counter " << h[desc / 8];
  return os.str();
}

}  // namespace

fused_buffers::fused_buffers(std::int64_t lo, std::int64_t n, std::size_t temp_size)
    : min_n(lo),
      max_n(n),
      out_bytes(2 * kGuard + 4 * std::size_t(n + kMaxOffset)),
      off_bytes(2 * kGuard + 8 * std::size_t(n + 1 + kMaxOffset)),
      temp_bytes(temp_size),
      x(4 * std::size_t(n + kMaxOffset)),
      flags(std::size_t(n + kMaxOffset)),
      out(out_bytes),
      offsets(off_bytes),
      count(2 * kGuard + 8),
      temp(temp_size),
      hx(4 * std::size_t(n), kPinned),
      hf(std::size_t(n), kPinned),
      hout(out_bytes, kPinned),
      hoff(off_bytes, kPinned),
      hcount(2 * kGuard + 8, kPinned) {}

std::size_t temp_needed(const std::vector<const kernel_info*>& ks, std::int64_t max_n) {
  std::size_t most = 16;
  for (const kernel_info* k : ks)
    for (dtype t : {dtype::f32, dtype::i32}) {
      device_inputs in;
      in.type = t;
      in.n = max_n;
      std::size_t tb = 0;
      k->run(in, device_outputs{}, nullptr, tb, nullptr);
      most = std::max(most, tb);
    }
  return most;
}

std::string fused_case(const kernel_info& k, std::uint64_t case_seed, fused_buffers& b, cudaStream_t stream) {
  inputs::stream rng(case_seed);
  const std::int64_t tile = k.tile_items();  // stress runs the fused kernels only (stress.cpp)
  const std::int64_t n = draw_n(rng, b.min_n, b.max_n, tile);
  const dtype t = rng.integer(0, 1) ? dtype::f32 : dtype::i32;
  const distribution d = draw_distribution(rng);
  const bool aligned = rng.integer(0, 3) == 0;
  const std::int64_t ox = aligned ? 0 : rng.integer(0, 15), of = aligned ? 0 : rng.integer(0, 15),
                     oo = aligned ? 0 : rng.integer(0, 15), ok = aligned ? 0 : rng.integer(0, 3);
  const bool sum = k.kind == op::segmented_sum, segmented = k.kind != op::scan;
  fill_values(t, b.hx.as<void>(), n, case_seed);
  fill_flags(d, b.hf.as<std::uint8_t>(), n, case_seed);
  const std::int64_t segs = count_segments(b.hf.as<std::uint8_t>(), n);

  auto* x_at = b.x.as<unsigned char>() + 4 * ox;
  auto* flags_at = b.flags.as<std::uint8_t>() + of;
  auto* out_at = b.out.as<unsigned char>() + kGuard + 4 * oo;
  auto* off_at = reinterpret_cast<std::int64_t*>(b.offsets.as<unsigned char>() + kGuard) + ok;
  auto* count_at = reinterpret_cast<std::int64_t*>(b.count.as<unsigned char>() + kGuard);
  runtime::check(cudaMemcpyAsync(x_at, b.hx.as<void>(), 4 * std::size_t(n), cudaMemcpyHostToDevice, stream), "upload");
  runtime::check(cudaMemcpyAsync(flags_at, b.hf.as<void>(), std::size_t(n), cudaMemcpyHostToDevice, stream), "upload");
  runtime::check(cudaMemsetAsync(b.out.get(), kPoison, b.out_bytes, stream), "poison");
  if (sum) {
    runtime::check(cudaMemsetAsync(b.offsets.get(), kPoison, b.off_bytes, stream), "poison");
    runtime::check(cudaMemsetAsync(b.count.get(), kPoison, 2 * kGuard + 8, stream), "poison");
  }
  device_inputs in;
  in.type = t;
  in.n = n;
  in.x = x_at;
  in.flags = flags_at;
  in.num_segments = segs;
  const device_outputs o{out_at, sum ? off_at : nullptr, sum ? count_at : nullptr};
  std::size_t tb = 0;
  k.run(in, o, nullptr, tb, stream);
  if (tb > b.temp_bytes) return "temporary storage of " + std::to_string(tb) + " bytes exceeds the stress's";
  k.run(in, o, b.temp.get(), tb, stream);
  runtime::check(cudaMemcpyAsync(b.hout.as<void>(), b.out.get(), b.out_bytes, cudaMemcpyDeviceToHost, stream), "download");
  if (sum) {
    runtime::check(cudaMemcpyAsync(b.hoff.as<void>(), b.offsets.get(), b.off_bytes, cudaMemcpyDeviceToHost, stream), "download");
    runtime::check(cudaMemcpyAsync(b.hcount.as<void>(), b.count.get(), 2 * kGuard + 8, cudaMemcpyDeviceToHost, stream), "download");
  }
  runtime::check(cudaStreamSynchronize(stream), k.name);

  const auto* hout = b.hout.as<unsigned char>();
  std::int64_t reported = segs;
  kernel_reference::verdict v;
  std::string guard_error;
  std::int64_t written = n;  // items of out the kernel writes
  if (sum) {
    std::memcpy(&reported, b.hcount.as<unsigned char>() + kGuard, 8);
    const bool count_ok = reported >= 0 && reported <= n;
    written = count_ok ? reported : 0;
    const auto* hoff = b.hoff.as<unsigned char>();
    const std::size_t off_begin = kGuard + 8 * std::size_t(ok), off_end = off_begin + 8 * std::size_t(written + 1);
    if (!all_poison(b.hcount.as<unsigned char>(), kGuard) || !all_poison(b.hcount.as<unsigned char>() + kGuard + 8, kGuard))
      guard_error = "wrote beside num_segments";
    else if (count_ok && (!all_poison(hoff, off_begin) || !all_poison(hoff + off_end, b.off_bytes - off_end)))
      guard_error = "wrote offsets outside [0, num_segments]";
    v = kernel_reference::verify_segmented_sum(t, b.hx.as<void>(), b.hf.as<std::uint8_t>(), hout + kGuard + 4 * oo,
                             count_ok && reported == segs ? reinterpret_cast<const std::int64_t*>(hoff + off_begin) : nullptr,
                             reported, n, k.speculation_block, k.speculation_phase(x_at, flags_at, out_at));
  } else {
    v = kernel_reference::verify_segmented_scan(t, b.hx.as<void>(), segmented ? b.hf.as<std::uint8_t>() : nullptr,
                              hout + kGuard + 4 * oo, n, k.speculation_block,
                              k.speculation_phase(x_at, flags_at, out_at));
  }
  const std::size_t out_begin = kGuard + 4 * std::size_t(oo), out_end = out_begin + 4 * std::size_t(written);
  if (guard_error.empty() && (!all_poison(hout, out_begin) || !all_poison(hout + out_end, b.out_bytes - out_end)))
    guard_error = sum ? "wrote sums past num_segments or before sums" : "wrote outside out[0, n)";
  std::int64_t still_poison = 0;  // the inputs are finite: an fp32 result never is the poison NaN
  for (std::int64_t i = 0; i < written; ++i) still_poison += all_poison(hout + out_begin + 4 * i, 4);
  // V3's fp32 misses the fp32 rule at single-item results by design (mmvram/harness/tolerance.hpp): accepted
  // when every other result passes and those stay within the derived bound.
  const bool documented = !k.claims_fp32_accuracy && t == dtype::f32 && !v.layout_error && still_poison == 0 &&
                          v.bad == v.single_bad && v.single_over_derived <= 1.0;
  if ((v.pass || documented) && guard_error.empty() && (t == dtype::i32 || still_poison == 0)) return "";

  std::ostringstream os;
  os << "n " << n << ' ' << dtype_name(t) << ' ' << d.name() << " segments " << segs << " offsets x/flags/out/offsets "
     << ox << '/' << of << '/' << oo << '/' << ok << ": " << (guard_error.empty() ? v.detail : guard_error)
     << "; first bad " << v.first_bad << ", words still poisoned " << still_poison << " of " << written;
  if (sum) os << ", num_segments " << reported << " (want " << segs << ")";
  os << descriptor_summary(b.temp.get(), b.temp_bytes, n, tile, sum, stream);
  return os.str();
}

std::string state_passing_case(std::uint64_t case_seed, state_buffers& b, cudaStream_t stream, std::string& name) {
  inputs::stream rng(case_seed);
  const std::int64_t g = rng.integer(0, kMaxChunks);
  const int h = int(rng.integer(1, kMaxHeads)), rows = int(rng.integer(1, kMaxRows)), cols = rng.integer(0, 1) ? 32 : kMaxCols;
  const decay_layout layout = rng.integer(0, 1) ? decay_layout::per_row : decay_layout::per_head;
  const double rates[] = {0.0, 0.01, 0.1, 0.5, 1.0};
  const double rate = rates[rng.integer(0, 4)];
  const auto m = static_cast<state_passing_method>(rng.integer(0, 2));
  const bool bf16 = rng.integer(0, 1) == 1;
  const std::int64_t ol = rng.integer(0, 3), os_ = rng.integer(0, 3);
  name = std::string("state_passing_") + (m == state_passing_method::cuda_core ? "cuda_core"
                                          : m == state_passing_method::tensor_core ? "tensor_core"
                                                                                   : "tensor_core_speculative");
  state_passing_problem p = make_state_passing_problem(g, h, rows, cols, layout, rate, rng.next());
  if (bf16)
    for (auto& x : p.local) x = from_bf16_bits(to_bf16_bits(float(x)));
  std::vector<double> want, bound, unsegmented;
  state_passing_reference(p, want, bound, &unsegmented);
  const std::size_t count = p.local.size(), elem = bf16 ? 2 : 4;
  for (std::size_t i = 0; i < count; ++i) {
    if (bf16) b.hlocal.as<std::uint16_t>()[i] = to_bf16_bits(float(p.local[i]));
    else b.hlocal.as<float>()[i] = float(p.local[i]);
  }
  const std::vector<float> decay(p.log_decay.begin(), p.log_decay.end());
  auto* local_at = b.local.as<unsigned char>() + kGuard + elem * std::size_t(ol);
  auto* states_at = b.states.as<unsigned char>() + kGuard + 4 * std::size_t(os_);
  const std::size_t states_bytes = 2 * kGuard + 4 * std::size_t(kMaxStates + 4);
  runtime::check(cudaMemcpyAsync(local_at, b.hlocal.as<void>(), elem * count, cudaMemcpyHostToDevice, stream), "upload");
  runtime::check(cudaMemcpyAsync(b.decay.get(), decay.data(), 4 * decay.size(), cudaMemcpyHostToDevice, stream), "upload");
  runtime::check(cudaMemcpyAsync(b.starts.get(), p.starts.data(), p.starts.size(), cudaMemcpyHostToDevice, stream), "upload");
  runtime::check(cudaMemsetAsync(b.states.get(), kPoison, states_bytes, stream), "poison");
  if (bf16)
    state_passing(reinterpret_cast<const std::uint16_t*>(local_at), b.decay.as<float>(), b.starts.as<std::uint8_t>(),
                  reinterpret_cast<float*>(states_at), p.shape, m, stream);
  else
    state_passing(reinterpret_cast<const float*>(local_at), b.decay.as<float>(), b.starts.as<std::uint8_t>(),
                  reinterpret_cast<float*>(states_at), p.shape, m, stream);
  runtime::check(cudaMemcpyAsync(b.hstates.as<void>(), b.states.get(), states_bytes, cudaMemcpyDeviceToHost, stream), "download");
  runtime::check(cudaStreamSynchronize(stream), name);
  const auto* hs = b.hstates.as<unsigned char>();
  const std::size_t begin = kGuard + 4 * std::size_t(os_), end = begin + 4 * count;
  std::ostringstream os;
  os << "G " << g << " lanes " << p.lanes() << (layout == decay_layout::per_row ? " per_row" : " per_head")
     << " start rate " << rate << (bf16 ? " bf16" : " f32") << " offsets " << ol << '/' << os_ << ": ";
  if (!all_poison(hs, begin) || !all_poison(hs + end, states_bytes - end)) return os.str() + "wrote outside states";
  const auto& scale = m == state_passing_method::tensor_core_speculative ? unsegmented : bound;
  std::vector<float> got(count);
  if (count > 0) std::memcpy(got.data(), hs + begin, 4 * count);
  const auto v = kernel_reference::verify_state_passing(got.data(), 1, want.data(), scale.data(), std::int64_t(count));
  return v.pass ? "" : os.str() + v.detail;
}

}  // namespace mmv::tool::kernels
