// Standalone self-check and timing driver for the kernels behind mmvram/gpu/api.hpp (not built
// by CMake; gpu/src-dev/build.sh builds it). Checks against CPU references (float64 / exact
// uint32) on fresh random data with poisoned outputs, checks n > 2^31 on the device, and times
// n = 2^28 beside cub::DeviceScan::InclusiveSum and a device-to-device copy.
// Usage: check [--small] [--no-large] [--no-time] [--time-only] [--profile KIND MEAN_LEN]
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "mmvram/gpu/api.hpp"

namespace {

void ck(cudaError_t e, const char* what, int line) {
  if (e != cudaSuccess) {
    std::printf("CUDA error %s at line %d: %s\n", what, line, cudaGetErrorString(e));
    std::exit(2);
  }
}
#define CK(x) ck((x), #x, __LINE__)

int failures = 0;
std::uint64_t seed_counter = 0x1234;

__host__ __device__ std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

__global__ void gen_f32(float* p, std::int64_t n, std::uint64_t seed) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * blockDim.x)
  {  // as mmvram-gpu check: uniform in [-0.5, 1) with |x| >= 2^-10
    float v = float(mix(seed ^ std::uint64_t(i)) >> 40) * (1.5f / (1 << 24)) - 0.5f;
    p[i] = std::fabs(v) < 0.0009765625f ? (v < 0 ? -0.0009765625f : 0.0009765625f) : v;
  }
}
__global__ void gen_i32(std::uint32_t* p, std::int64_t n, std::uint64_t seed) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * blockDim.x)
    p[i] = std::uint32_t(mix(seed ^ std::uint64_t(i)) >> 17);
}
// a start with probability 1/mean_len; byte values vary (any non-zero is a start)
__global__ void gen_flags(std::uint8_t* f, std::int64_t n, std::uint64_t seed, double mean_len) {
  const std::uint64_t thr = mean_len <= 1.0 ? ~0ull : std::uint64_t(18446744073709551615.0 / mean_len);
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * blockDim.x) {
    const std::uint64_t r = mix(seed ^ std::uint64_t(i));
    f[i] = r <= thr ? std::uint8_t(1 + (r & 1) * ((r >> 8) & 0x7f)) : 0;
  }
}

template <class T>
void fill(T* d, std::int64_t n) {
  const std::uint64_t s = mix(++seed_counter);
  if constexpr (std::is_same_v<T, float>) gen_f32<<<1024, 256>>>(d, n, s);
  else gen_i32<<<1024, 256>>>(reinterpret_cast<std::uint32_t*>(d), n, s);
  CK(cudaGetLastError());
}

template <class T>
std::vector<T> to_host(const T* d, std::int64_t n) {
  std::vector<T> h(n);
  CK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

struct temp_buf {
  void* p = nullptr;
  std::size_t bytes = 0;
  void need(std::size_t b) {
    if (b > bytes) {
      if (p) CK(cudaFree(p));
      CK(cudaMalloc(&p, b));
      bytes = b;
    }
  }
} temp;

// ---- references ----
std::vector<double> ref_segscan(const std::vector<float>& x, const std::vector<std::uint8_t>* f) {
  std::vector<double> r(x.size());
  double run = 0;
  for (std::size_t i = 0; i < x.size(); ++i) run = (i == 0 || (f && (*f)[i])) ? x[i] : run + x[i], r[i] = run;
  return r;
}
std::vector<std::uint32_t> ref_segscan(const std::vector<std::int32_t>& x, const std::vector<std::uint8_t>* f) {
  std::vector<std::uint32_t> r(x.size());
  std::uint32_t run = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    run = (i == 0 || (f && (*f)[i])) ? std::uint32_t(x[i]) : run + std::uint32_t(x[i]), r[i] = run;
  return r;
}

// relative 2-norm error (NaN → +inf)
double rel_err(const std::vector<float>& out, const std::vector<double>& ref) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    const double d = double(out[i]) - ref[i];
    if (!std::isfinite(out[i])) return INFINITY;
    num += d * d, den += ref[i] * ref[i];
  }
  return den > 0 ? std::sqrt(num / den) : std::sqrt(num);
}
std::int64_t mismatches(const std::vector<std::int32_t>& out, const std::vector<std::uint32_t>& ref) {
  std::int64_t m = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) m += std::uint32_t(out[i]) != ref[i];
  return m;
}

std::int64_t max_seg_len(const std::vector<std::uint8_t>* f, std::int64_t n) {
  if (!f) return n;
  std::int64_t best = 0, start = 0;
  for (std::int64_t i = 1; i <= n; ++i)
    if (i == n || (*f)[i]) best = std::max(best, i - start), start = i;
  return best;
}
double tol_for(std::int64_t len) { return 1e-6 * std::max(1.0, std::sqrt(double(len) / 4096.0)); }

void report(const char* what, const char* type, std::int64_t n, double L, int mis, bool ok, double err,
            double tol, bool verbose) {
  if (!ok) ++failures;
  if (!ok || verbose)
    std::printf("%-5s %-12s %-3s n=%-9lld L=%-8g mis=%d err=%.3g tol=%.3g\n", ok ? "ok" : "FAIL", what, type,
                (long long)n, L, mis, err, tol);
}

// ---- one check ----
// kind: 0 matmul_scan, 1 sscr, 2 scd. L: mean segment length (0 = no flags beyond position 0).
template <class T>
void check_case(int kind, std::int64_t n, double L, int mis, bool verbose) {
  const char* type = std::is_same_v<T, float> ? "f32" : "i32";
  const char* names[] = {"matmul_scan", "sscr", "scd"};
  T *x0, *o0;
  std::uint8_t* f0;
  std::int64_t *off0, *nseg;
  CK(cudaMalloc(&x0, (n + 8) * sizeof(T)));
  CK(cudaMalloc(&o0, (n + 8) * sizeof(T)));
  CK(cudaMalloc(&f0, n + 8));
  CK(cudaMalloc(&off0, (n + 2) * sizeof(std::int64_t)));
  CK(cudaMalloc(&nseg, sizeof(std::int64_t)));
  T* x = x0 + mis;
  T* o = o0 + mis;
  std::uint8_t* f = f0 + mis;
  fill(x, n);
  gen_flags<<<1024, 256>>>(f, n, mix(++seed_counter), L > 0 ? L : 1e30);
  CK(cudaGetLastError());
  CK(cudaMemset(o0, 0xFF, (n + 8) * sizeof(T)));  // NaN / 0xFFFFFFFF poison
  CK(cudaMemset(off0, 0xA5, (n + 2) * sizeof(std::int64_t)));
  CK(cudaMemset(nseg, 0xA5, sizeof(std::int64_t)));
  std::size_t bytes = 0;
  auto call = [&](void* t) {
    if (kind == 0) mmv::gpu::matmul_scan(x, o, n, t, bytes);
    if (kind == 1) mmv::gpu::sscr_segmented_scan(x, f, o, n, t, bytes);
    if (kind == 2) mmv::gpu::scd_segmented_sum(x, f, o, off0, nseg, n, t, bytes);
  };
  call(nullptr);
  temp.need(bytes);
  call(temp.p);
  CK(cudaDeviceSynchronize());
  const auto hx = to_host(x, n);
  const auto hf = to_host(f, n);
  const std::vector<std::uint8_t>* fp = kind == 0 ? nullptr : &hf;
  const double tol = tol_for(max_seg_len(fp, n));
  if (kind < 2) {
    const auto ho = to_host(o, n);
    const auto ref = ref_segscan(hx, fp);
    if constexpr (std::is_same_v<T, float>) {
      // per segment, as mmvram-gpu check: ||out - ref|| / ||ref|| <= b(len); report the worst ratio
      double worst = 0, werr = 0;
      std::int64_t start = 0;
      for (std::int64_t i = 1; i <= n; ++i) {
        if (i < n && !(kind == 1 && hf[i])) continue;
        double num = 0, den = 0;
        for (std::int64_t j = start; j < i; ++j) {
          const double d = std::isfinite(ho[j]) ? double(ho[j]) - ref[j] : INFINITY;
          num += d * d, den += ref[j] * ref[j];
        }
        const double e = den > 0 ? std::sqrt(num / den) : std::sqrt(num);
        if (!(e / tol_for(i - start) <= worst)) worst = e / tol_for(i - start), werr = e;
        start = i;
      }
      report(names[kind], type, n, L, mis, worst <= 1.0, werr, worst, verbose);
    } else {
      const std::int64_t m = mismatches(ho, ref);
      report(names[kind], type, n, L, mis, m == 0, double(m), 0, verbose);
    }
  } else {
    std::int64_t k = 0;
    CK(cudaMemcpy(&k, nseg, sizeof k, cudaMemcpyDeviceToHost));
    std::vector<std::int64_t> roff;
    for (std::int64_t i = 0; i < n; ++i)
      if (i == 0 || hf[i]) roff.push_back(i);
    const std::int64_t K = std::int64_t(roff.size());
    roff.push_back(n);
    bool ok = k == K;
    double err = ok ? 0.0 : INFINITY;
    if (ok) {
      const auto hoff = to_host(off0, K + 1);
      ok = hoff == roff;
      const auto hs = to_host(o, K);
      if constexpr (std::is_same_v<T, float>) {
        // error relative to the segments' sums of |x| (a single sum of mixed signs is
        // ill-conditioned, so ||ref|| alone would measure the data, not the kernel)
        std::vector<double> rs(K, 0.0), ra(K, 0.0);
        for (std::int64_t s = 0; s < K; ++s)
          for (std::int64_t i = roff[s]; i < roff[s + 1]; ++i) rs[s] += hx[i], ra[s] += std::fabs(hx[i]);
        err = 0;  // worst |out - ref| / (b(len) * sum|x|) over segments, as mmvram-gpu check
        for (std::int64_t s = 0; s < K; ++s) {
          const double d = std::isfinite(hs[s]) ? std::fabs(double(hs[s]) - rs[s]) : INFINITY;
          const double r = d / (tol_for(roff[s + 1] - roff[s]) * ra[s]);
          if (!(r <= err)) err = r;
        }
        ok = ok && err <= 1.0;
      } else {
        std::int64_t m = 0;
        for (std::int64_t s = 0; s < K; ++s) {
          std::uint32_t r = 0;
          for (std::int64_t i = roff[s]; i < roff[s + 1]; ++i) r += std::uint32_t(hx[i]);
          m += std::uint32_t(hs[s]) != r;
        }
        err = double(m);
        ok = ok && m == 0;
      }
    }
    report(names[kind], type, n, L, mis, ok, err, tol, verbose);
  }
  CK(cudaFree(x0));
  CK(cudaFree(o0));
  CK(cudaFree(f0));
  CK(cudaFree(off0));
  CK(cudaFree(nseg));
}

// CUB's own error on the same kind of data, for the long unsegmented scans.
void cub_error(std::int64_t n) {
  float *x, *o;
  CK(cudaMalloc(&x, n * 4));
  CK(cudaMalloc(&o, n * 4));
  fill(x, n);
  std::size_t b = 0;
  CK(cub::DeviceScan::InclusiveSum(nullptr, b, x, o, n));
  temp.need(b);
  CK(cub::DeviceScan::InclusiveSum(temp.p, b, x, o, n));
  std::size_t b2 = 0;
  CK(cudaDeviceSynchronize());
  const auto ref = ref_segscan(to_host(x, n), nullptr);
  const double e_cub = rel_err(to_host(o, n), ref);
  mmv::gpu::matmul_scan(x, o, n, nullptr, b2);
  temp.need(b2);
  mmv::gpu::matmul_scan(x, o, n, temp.p, b2);
  CK(cudaDeviceSynchronize());
  const double e_our = rel_err(to_host(o, n), ref);
  std::printf("info  same data n=%lld: rel err CUB InclusiveSum %.3g, matmul_scan %.3g\n", (long long)n, e_cub, e_our);
  CK(cudaFree(x));
  CK(cudaFree(o));
}

// ---- n > 2^31, int32, checked on the device ----
__global__ void verify_scan(const std::uint32_t* x, const std::uint8_t* f, const std::uint32_t* o, std::int64_t n,
                            unsigned long long* bad) {
  unsigned long long b = 0;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * blockDim.x) {
    const bool start = i == 0 || (f && f[i]);
    b += o[i] != (start ? x[i] : o[i - 1] + x[i]);
  }
  if (b) atomicAdd(bad, b);
}
__global__ void count_starts(const std::uint8_t* f, std::int64_t n, unsigned long long* k) {
  unsigned long long c = 0;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * blockDim.x)
    c += i == 0 || f[i];
  atomicAdd(k, c);
}
__global__ void verify_scd(const std::uint8_t* f, const std::uint32_t* scan, const std::uint32_t* sums,
                           const std::int64_t* off, std::int64_t K, std::int64_t n, unsigned long long* bad) {
  unsigned long long b = 0;
  for (std::int64_t k = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; k < K; k += std::int64_t(gridDim.x) * blockDim.x) {
    const std::int64_t s = off[k], e = off[k + 1];
    if (!(s < e && e <= n && (s == 0 || f[s]) && (k > 0 || s == 0))) { ++b; continue; }
    b += sums[k] != scan[e - 1];
  }
  if (b) atomicAdd(bad, b);
}

void check_large() {
  const std::int64_t n = (1ll << 31) + 5003;
  std::uint32_t *x, *o, *s;
  std::uint8_t* f;
  std::int64_t *off, *nseg;
  unsigned long long* bad;
  CK(cudaMalloc(&x, n * 4));
  CK(cudaMalloc(&o, n * 4));
  CK(cudaMalloc(&s, n * 4));
  CK(cudaMalloc(&f, n));
  CK(cudaMalloc(&off, (n + 1) * 8));
  CK(cudaMalloc(&nseg, 8));
  CK(cudaMalloc(&bad, 8 * 4));
  CK(cudaMemset(bad, 0, 8 * 4));
  gen_i32<<<4096, 256>>>(x, n, mix(++seed_counter));
  gen_flags<<<4096, 256>>>(f, n, mix(++seed_counter), 1000.0);
  CK(cudaMemset(o, 0xFF, n * 4));
  std::size_t b = 0;
  auto* xi = reinterpret_cast<std::int32_t*>(x);
  auto* oi = reinterpret_cast<std::int32_t*>(o);
  auto* si = reinterpret_cast<std::int32_t*>(s);
  mmv::gpu::matmul_scan(xi, oi, n, nullptr, b);
  temp.need(b);
  mmv::gpu::matmul_scan(xi, oi, n, temp.p, b);
  verify_scan<<<4096, 256>>>(x, nullptr, o, n, bad + 0);
  CK(cudaMemset(o, 0xFF, n * 4));
  mmv::gpu::sscr_segmented_scan(xi, f, oi, n, nullptr, b);
  temp.need(b);
  mmv::gpu::sscr_segmented_scan(xi, f, oi, n, temp.p, b);
  verify_scan<<<4096, 256>>>(x, f, o, n, bad + 1);
  mmv::gpu::scd_segmented_sum(xi, f, si, off, nseg, n, nullptr, b);
  temp.need(b);
  mmv::gpu::scd_segmented_sum(xi, f, si, off, nseg, n, temp.p, b);
  count_starts<<<4096, 256>>>(f, n, bad + 2);
  CK(cudaDeviceSynchronize());
  unsigned long long h[4];
  std::int64_t K = 0;
  CK(cudaMemcpy(h, bad, sizeof h, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&K, nseg, 8, cudaMemcpyDeviceToHost));
  bool kok = K == std::int64_t(h[2]);
  std::int64_t offn = -1;
  if (kok) {
    CK(cudaMemcpy(&offn, off + K, 8, cudaMemcpyDeviceToHost));
    verify_scd<<<4096, 256>>>(f, o, s, off, K, n, bad + 3);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h, bad, sizeof h, cudaMemcpyDeviceToHost));
  }
  const bool ok = h[0] == 0 && h[1] == 0 && kok && offn == n && h[3] == 0;
  if (!ok) ++failures;
  std::printf("%-5s large int32 n=%lld: scan bad=%llu sscr bad=%llu scd K=%lld (ref %llu) offsets[K]=%lld bad=%llu\n",
              ok ? "ok" : "FAIL", (long long)n, h[0], h[1], (long long)K, h[2], (long long)offn, h[3]);
  for (void* p : {(void*)x, (void*)o, (void*)s, (void*)f, (void*)off, (void*)nseg, (void*)bad}) CK(cudaFree(p));
}

// ---- timing ----
float median_ms(const std::function<void()>& fn, int reps = 25) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  for (int i = 0; i < 3; ++i) fn();
  std::vector<float> t;
  for (int i = 0; i < reps; ++i) {
    CK(cudaEventRecord(a));
    fn();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  CK(cudaGetLastError());
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

void time_all() {
  const std::int64_t n = 1ll << 28;
  float *x, *o;
  std::uint8_t* f;
  std::int64_t *off, *nseg;
  CK(cudaMalloc(&x, n * 4));
  CK(cudaMalloc(&o, n * 4));
  CK(cudaMalloc(&f, n));
  CK(cudaMalloc(&off, (n + 1) * 8));
  CK(cudaMalloc(&nseg, 8));
  fill(x, n);
  auto* xi = reinterpret_cast<std::int32_t*>(x);
  auto* oi = reinterpret_cast<std::int32_t*>(o);
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  std::printf("timing on %s, n = 2^28, median of 25 (CUDA events)\n", prop.name);
  const float t_copy = median_ms([&] { CK(cudaMemcpyAsync(o, x, n * 4, cudaMemcpyDeviceToDevice)); });
  std::size_t cb = 0;
  CK(cub::DeviceScan::InclusiveSum(nullptr, cb, x, o, n));
  temp.need(cb + (1 << 20));
  const float t_cub = median_ms([&] { CK(cub::DeviceScan::InclusiveSum(temp.p, cb, x, o, n)); });
  auto line = [&](const char* what, double L, float ms) {
    const double gis = double(n) / (ms * 1e-3) / 1e9;
    std::printf("%-16s L=%-9g %8.3f ms %7.1f G items/s  x%.2f CUB  x%.2f copy(8B/item)\n", what, L, ms, gis,
                t_cub / ms, t_copy / ms);
  };
  std::printf("copy D2D 4n bytes: %.3f ms = %.0f GB/s (read+write)\n", t_copy, 8.0 * n / (t_copy * 1e-3) / 1e9);
  line("cub InclusiveSum", 0, t_cub);
  std::size_t b = 0;
  mmv::gpu::scd_segmented_sum(x, f, o, off, nseg, n, nullptr, b);
  temp.need(b);
  b = temp.bytes;
  line("matmul_scan f32", 0, median_ms([&] { mmv::gpu::matmul_scan(x, o, n, temp.p, b); }));
  line("matmul_scan i32", 0, median_ms([&] { mmv::gpu::matmul_scan(xi, oi, n, temp.p, b); }));
  for (double L : {0.0, 1048576.0, 1024.0, 32.0, 4.0, 1.0}) {
    gen_flags<<<1024, 256>>>(f, n, mix(++seed_counter), L > 0 ? L : 1e30);
    line("sscr f32", L, median_ms([&] { mmv::gpu::sscr_segmented_scan(x, f, o, n, temp.p, b); }));
    line("sscr i32", L, median_ms([&] { mmv::gpu::sscr_segmented_scan(xi, f, oi, n, temp.p, b); }));
    line("scd f32", L, median_ms([&] { mmv::gpu::scd_segmented_sum(x, f, o, off, nseg, n, temp.p, b); }));
    line("scd i32", L, median_ms([&] { mmv::gpu::scd_segmented_sum(xi, f, oi, off, nseg, n, temp.p, b); }));
  }
  for (void* p : {(void*)x, (void*)o, (void*)f, (void*)off, (void*)nseg}) CK(cudaFree(p));
}

// One warmed-up call of one kernel at n = 2^28 (for ncu): kind 0/1/2 as check_case, f32.
void profile_one(int kind, double L) {
  const std::int64_t n = 1ll << 28;
  float *x, *o;
  std::uint8_t* f;
  std::int64_t *off, *nseg;
  CK(cudaMalloc(&x, n * 4));
  CK(cudaMalloc(&o, n * 4));
  CK(cudaMalloc(&f, n));
  CK(cudaMalloc(&off, (n + 1) * 8));
  CK(cudaMalloc(&nseg, 8));
  fill(x, n);
  gen_flags<<<1024, 256>>>(f, n, mix(++seed_counter), L > 0 ? L : 1e30);
  std::size_t b = 0;
  mmv::gpu::scd_segmented_sum(x, f, o, off, nseg, n, nullptr, b);
  temp.need(b);
  for (int i = 0; i < 3; ++i) {
    if (kind == 0) mmv::gpu::matmul_scan(x, o, n, temp.p, b);
    if (kind == 1) mmv::gpu::sscr_segmented_scan(x, f, o, n, temp.p, b);
    if (kind == 2) mmv::gpu::scd_segmented_sum(x, f, o, off, nseg, n, temp.p, b);
  }
  CK(cudaDeviceSynchronize());
}

}  // namespace

int main(int argc, char** argv) {
  bool small = false, large = true, timing = true;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--small")) small = true, large = false, timing = false;
    if (!std::strcmp(argv[i], "--no-large")) large = false;
    if (!std::strcmp(argv[i], "--no-time")) timing = false;
    if (!std::strcmp(argv[i], "--profile") && i + 2 < argc) {
      profile_one(std::atoi(argv[i + 1]), std::atof(argv[i + 2]));
      return 0;
    }
    if (!std::strcmp(argv[i], "--time-only")) {
      large = false;
      time_all();
      return 0;
    }
  }
  std::vector<std::int64_t> sizes = {1, 2, 3, 31, 32, 33, 511, 512, 513, 4095, 4096, 4097, 12345, 4096 * 7 + 5};
  if (small) sizes = {1, 2, 33, 4095, 4097, 12345, 4096 * 7 + 5};
  else sizes.insert(sizes.end(), {(1 << 20) + 3, 1 << 22, 3 * (1 << 21) + 17});
  int cases = 0;
  for (std::int64_t n : sizes)
    for (int mis : {0, 1}) {
      if (mis && n > 100000) continue;
      const bool verbose = n == (1 << 22);
      for (int kind = 0; kind < 3; ++kind)
        for (double L : {0.0, 100000.0, 1000.0, 32.0, 5.0, 1.0}) {
          if (kind == 0 && L != 0.0) continue;
          if (small && L == 100000.0) continue;
          check_case<float>(kind, n, L, mis, verbose);
          check_case<std::int32_t>(kind, n, L, mis, verbose);
          cases += 2;
        }
    }
  std::printf("checked %d cases, %d failures\n", cases, failures);
  if (!small) cub_error(1 << 22);
  if (large) check_large();
  if (timing) time_all();
  std::printf("%s: %d failures\n", failures ? "FAILED" : "PASSED", failures);
  return failures ? 1 : 0;
}
