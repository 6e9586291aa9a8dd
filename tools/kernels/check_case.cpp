// mmvram kernels check, one case (check.hpp: check_case, check_data): the inputs and a poisoned,
// guarded out on the device at a chosen pointer offset, the preparation some kernels need
// (segment keys, offsets), each kernel's run and its comparison with the CPU reference.
#include "check.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>

#include "mmvram/gpu/baselines/baselines.hpp"
#include "mmvram/gpu/runtime/buffer.hpp"
#include "mmvram/gpu/runtime/device.hpp"

namespace mmv::tool::kernels {
namespace {

constexpr std::size_t memory_margin = std::size_t{512} << 20;

std::string gib(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", bytes / double(1ull << 30));
  return buf;
}

// Downloads count elements of T from device to a new host array.
template <class T>
std::unique_ptr<T[]> download(const void* src, std::int64_t count) {
  std::unique_ptr<T[]> h(new T[static_cast<std::size_t>(std::max<std::int64_t>(count, 1))]);
  if (count > 0)
    runtime::check(cudaMemcpy(h.get(), src, sizeof(T) * static_cast<std::size_t>(count), cudaMemcpyDeviceToHost),
               "cudaMemcpy to host");
  return h;
}

// Whether the device bytes [p, p + bytes) still hold the 0xff poison.
bool poison_intact(const unsigned char* p, std::size_t bytes) {
  if (bytes == 0) return true;
  std::vector<unsigned char> h(bytes);
  runtime::check(cudaMemcpy(h.data(), p, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy to host");
  return std::all_of(h.begin(), h.end(), [](unsigned char b) { return b == 0xff; });
}

}  // namespace

std::vector<check_result> check_case(const std::vector<const kernel_info*>& kernels, dtype t,
                                     std::int64_t n, const distribution& d, std::uint64_t seed,
                                     bool with_unsegmented, std::int64_t offset) {
  runtime::host_buffer hxb(static_cast<std::size_t>(n) * 4), hfb(static_cast<std::size_t>(n));
  fill_values(t, hxb.as<unsigned char>(), n, seed);
  fill_flags(d, hfb.as<std::uint8_t>(), n, seed);
  return check_data(kernels, t, hxb.as<unsigned char>(), hfb.as<std::uint8_t>(), n, d.name(), with_unsegmented,
                    offset);
}

std::vector<check_result> check_data(const std::vector<const kernel_info*>& kernels, dtype t, const void* x,
                                     const std::uint8_t* flags, std::int64_t n, const std::string& distribution,
                                     bool with_unsegmented, std::int64_t offset, const output_check& also) {
  std::vector<const kernel_info*> ks;
  for (auto* k : kernels)
    if (with_unsegmented || k->kind == op::segmented_scan || k->kind == op::segmented_sum) ks.push_back(k);
  std::vector<check_result> results;
  if (ks.empty()) return results;

  const auto vbytes = static_cast<std::size_t>(n) * 4;
  runtime::host_buffer houtb(vbytes);
  const auto* hx = static_cast<const unsigned char*>(x);
  const std::uint8_t* hf = flags;
  auto* hout = houtb.as<unsigned char>();
  const std::int64_t segs = count_segments(hf, n);

  auto result_for = [&](const kernel_info* k) {
    check_result r;
    r.kernel = k->name;
    r.family = k->family;
    r.operation = op_name(k->kind);
    r.type = t;
    r.n = n;
    const bool unsegmented = k->kind == op::copy || k->kind == op::reduce || k->kind == op::scan;
    r.distribution = unsegmented ? "none" : distribution;
    r.num_segments = unsegmented ? 1 : segs;
    r.pointer_offset = offset;
    return r;
  };
  auto skip_all = [&](const std::string& why) {
    for (auto* k : ks) {
      check_result r = result_for(k);
      r.status = "SKIPPED";
      r.detail = why;
      results.push_back(r);
    }
    return results;
  };

  if (offset < 0 || offset > 15) throw std::invalid_argument("check_case: pointer offset must be in 0..15 items");
  // Inputs and out start `offset` items past the allocations (unaligned pointers when odd); what
  // lies before the inputs is poisoned, and out has poisoned guards before and after it.
  const auto pad = static_cast<std::size_t>(offset);
  constexpr std::size_t guard = 64;
  const std::size_t base = 2 * vbytes + static_cast<std::size_t>(n) + 9 * pad + guard;
  if (base + memory_margin > runtime::free_device_bytes())
    return skip_all("needs " + gib(double(base + memory_margin)) + " of device memory, " +
                    gib(double(runtime::free_device_bytes())) + " free");
  runtime::device_buffer dx, dflags, dout;
  try {
    dx = runtime::device_buffer(vbytes + 4 * pad);
    dflags = runtime::device_buffer(static_cast<std::size_t>(n) + pad);
    dout = runtime::device_buffer(vbytes + 4 * pad + guard);
  } catch (const cuda_error& e) {
    return skip_all(e.what());
  }
  auto* x_at = dx.as<unsigned char>() + 4 * pad;
  auto* flags_at = dflags.as<std::uint8_t>() + pad;
  auto* out_at = dout.as<unsigned char>() + 4 * pad;
  runtime::check(cudaMemset(dx.get(), 0xff, 4 * pad), "cudaMemset");        // NaN / -1 before x
  runtime::check(cudaMemset(dflags.get(), 0x01, pad), "cudaMemset");        // starts before flags
  runtime::check(cudaMemcpy(x_at, hx, vbytes, cudaMemcpyHostToDevice), "cudaMemcpy to device");
  runtime::check(cudaMemcpy(flags_at, hf, static_cast<std::size_t>(n), cudaMemcpyHostToDevice), "cudaMemcpy to device");
  device_inputs in{};
  in.type = t;
  in.n = n;
  in.x = x_at;
  in.flags = flags_at;
  in.num_segments = segs;
  runtime::device_buffer keys, byte_keys, offsets, scd_offsets, scd_count;

  for (auto* k : ks) {
    check_result r = result_for(k);
    if (!k->unavailable.empty()) {
      r.status = "SKIPPED";
      r.detail = k->unavailable;
      results.push_back(r);
      continue;
    }
    try {
      // Device memory this kernel needs beyond the inputs and out.
      std::size_t extra = 0;
      if (k->needs_keys && keys.get() == nullptr) extra += vbytes;
      if (k->needs_byte_keys && byte_keys.get() == nullptr) extra += static_cast<std::size_t>(n);
      if (k->needs_offsets && offsets.get() == nullptr) extra += 8 * static_cast<std::size_t>(segs + 1);
      if (k->reports_offsets && scd_offsets.get() == nullptr) extra += 8 * static_cast<std::size_t>(n + 2);
      if (extra + memory_margin > runtime::free_device_bytes()) {
        r.status = "SKIPPED";
        r.detail = "needs " + gib(double(extra + memory_margin)) + " more device memory, " +
                   gib(double(runtime::free_device_bytes())) + " free";
        results.push_back(r);
        continue;
      }
      if (k->needs_keys && keys.get() == nullptr) {  // preparation, as the benchmarks do it
        keys = runtime::device_buffer(vbytes);
        std::size_t tb = 0;
        baselines::make_segment_keys(in.flags, keys.as<std::int32_t>(), n, nullptr, tb);
        runtime::device_buffer tmp(tb);
        baselines::make_segment_keys(in.flags, keys.as<std::int32_t>(), n, tmp.get(), tb);
        runtime::check(cudaDeviceSynchronize(), "make_segment_keys");
        in.keys = keys.as<std::int32_t>();
      }
      if (k->needs_byte_keys && byte_keys.get() == nullptr) {
        byte_keys = runtime::device_buffer(static_cast<std::size_t>(n));
        std::size_t tb = 0;
        baselines::make_segment_keys(in.flags, byte_keys.as<std::uint8_t>(), n, nullptr, tb);
        runtime::device_buffer tmp(tb);
        baselines::make_segment_keys(in.flags, byte_keys.as<std::uint8_t>(), n, tmp.get(), tb);
        runtime::check(cudaDeviceSynchronize(), "make_segment_keys");
        in.byte_keys = byte_keys.as<std::uint8_t>();
      }
      if (k->needs_offsets && offsets.get() == nullptr) {
        offsets = runtime::device_buffer(8 * static_cast<std::size_t>(segs + 1));
        runtime::device_buffer count(8);
        std::size_t tb = 0;
        baselines::make_segment_offsets(in.flags, offsets.as<std::int64_t>(), count.as<std::int64_t>(), n, nullptr, tb);
        runtime::device_buffer tmp(tb);
        baselines::make_segment_offsets(in.flags, offsets.as<std::int64_t>(), count.as<std::int64_t>(), n, tmp.get(), tb);
        std::int64_t got = 0;
        runtime::check(cudaMemcpy(&got, count.get(), 8, cudaMemcpyDeviceToHost), "make_segment_offsets");
        if (got != segs) throw cuda_error("make_segment_offsets counted " + std::to_string(got) + " segments, expected " + std::to_string(segs));
        in.offsets = offsets.as<std::int64_t>();
      }
      device_outputs o{out_at, nullptr, nullptr};
      if (k->reports_offsets) {
        if (scd_offsets.get() == nullptr) {
          scd_offsets = runtime::device_buffer(8 * static_cast<std::size_t>(n + 1));
          scd_count = runtime::device_buffer(8);
        }
        o.offsets = scd_offsets.as<std::int64_t>();
        o.num_segments = scd_count.as<std::int64_t>();
        runtime::check(cudaMemset(o.offsets, 0xff, scd_offsets.bytes()), "cudaMemset");
        runtime::check(cudaMemset(o.num_segments, 0xff, 8), "cudaMemset");
      }
      runtime::check(cudaMemset(dout.get(), 0xff, dout.bytes()), "cudaMemset");  // poison: NaN / -1
      std::size_t tb = 0;
      k->run(in, o, nullptr, tb, nullptr);
      runtime::device_buffer temp(std::max<std::size_t>(tb, 1));
      k->run(in, o, temp.get(), tb, nullptr);
      runtime::check(cudaDeviceSynchronize(), k->name);
      runtime::check(cudaGetLastError(), k->name);
      const bool guards_ok = poison_intact(dout.as<unsigned char>(), 4 * pad) &&
                             poison_intact(out_at + vbytes, guard);

      if (k->kind == op::copy || k->kind == op::scan || k->kind == op::segmented_scan)
        runtime::check(cudaMemcpy(hout, out_at, vbytes, cudaMemcpyDeviceToHost), "cudaMemcpy to host");
      if (k->kind == op::copy) {
        r.v = kernel_reference::verify_copy(hx, hout, static_cast<std::int64_t>(vbytes));
      } else if (k->kind == op::reduce) {
        runtime::check(cudaMemcpy(hout, out_at, 4, cudaMemcpyDeviceToHost), "cudaMemcpy to host");
        r.v = kernel_reference::verify_reduce(t, hx, hout, n);
      } else if (k->kind == op::scan || k->kind == op::segmented_scan) {
        r.v = kernel_reference::verify_segmented_scan(t, hx, k->kind == op::scan ? nullptr : hf, hout, n, k->speculation_block,
                                                     k->speculation_phase(x_at, flags_at, out_at));
      } else {
        std::int64_t reported = segs;
        std::unique_ptr<std::int64_t[]> hoff;
        if (k->reports_offsets) {
          runtime::check(cudaMemcpy(&reported, o.num_segments, 8, cudaMemcpyDeviceToHost), "cudaMemcpy to host");
          if (reported == segs) hoff = download<std::int64_t>(o.offsets, segs + 1);
        }
        if (reported == segs && segs > 0)
          runtime::check(cudaMemcpy(hout, out_at, 4 * static_cast<std::size_t>(segs), cudaMemcpyDeviceToHost),
                     "cudaMemcpy to host");
        r.v = kernel_reference::verify_segmented_sum(t, hx, hf, hout, hoff.get(), reported, n, k->speculation_block,
                                                    k->speculation_phase(x_at, flags_at, out_at));
      }
      const bool has_output = k->kind == op::scan || k->kind == op::segmented_scan || k->kind == op::segmented_sum;
      if (also && has_output && r.v.pass) {
        const std::string differs = also(*k, hout, k->kind == op::segmented_sum ? segs : n);
        if (!differs.empty()) r.v.pass = false, r.v.detail = differs;
      }
      if (!guards_ok) {
        r.v.pass = false;
        r.v.layout_error = true;
        r.v.detail = "wrote outside out[0, n) (guard bytes before or after it changed)";
      }
      r.status = r.v.pass ? "PASS" : "FAIL";
      r.detail = r.v.detail;
      const bool finding = t == dtype::f32 && k->kind != op::copy && !k->claims_fp32_accuracy;
      r.accuracy_claim = t == dtype::i32 || k->kind == op::copy ? "exact" : finding ? "documented_inaccuracy" : "fp32_bound";
      r.counts_toward_exit = !finding || r.v.layout_error;
    } catch (const cuda_error& e) {
      r.status = "ERROR";
      r.detail = e.what();
      runtime::throw_if_context_lost(k->name);
    }
    results.push_back(r);
  }
  return results;
}

}  // namespace mmv::tool::kernels
