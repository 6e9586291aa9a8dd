// The MMU of the cuda backend: the (rows x s) by (s x s) product through cuBLAS DGEMM (FP64,
// which cuBLAS runs on Hopper's DMMA tensor-core path where it chooses to; docs/backends.md
// says what the profiler found). Reals: double products rounded to the format once per output,
// as on the simulate backend. Words: exact. When |a| |w| s < 2^53 every partial sum is an exact
// double; otherwise both operands are split into 16-bit limbs (limb products < 2^32 s) and the
// limb products recombined in 128-bit integers, then width-checked.
#include "blas_library.hpp"
#include "device_common.cuh"

#include <cmath>
#include <vector>

namespace mmv::cuda_ops {

namespace {

// out (rows x s, row-major) = a (rows x s) * w (s x s): column-major C^T = W^T A^T, in slices of
// at most 2^30 rows (cuBLAS takes int dimensions).
void dgemm(const context& c, const real* a, const real* w, real* out, std::int64_t rows) {
  check(blas().set_stream(c.blas, c.stream), "set stream");
  const double one = 1.0, zero = 0.0;
  const int s = c.s;
  for (std::int64_t r0 = 0; r0 < rows; r0 += std::int64_t{1} << 30) {
    const int n = static_cast<int>(std::min<std::int64_t>(rows - r0, std::int64_t{1} << 30));
    check(blas().dgemm(c.blas, CUBLAS_OP_N, CUBLAS_OP_N, s, n, s, &one, w, s, a + r0 * s, s, &zero, out + r0 * s, s), "DGEMM");
  }
}

// Limbs needed for values of magnitude <= bound: 16 bits each, the top one signed.
int limbs_for(double bound) {
  const int bits = static_cast<int>(std::ceil(std::log2(bound + 1.0))) + 1;
  return std::max(1, (bits + 15) / 16);
}

// Device scratch of max(n, 1) reals, freed in stream order at scope exit.
gpu::runtime::async_buffer scratch(const context& c, std::int64_t n) {
  return allocate(static_cast<std::size_t>(std::max<std::int64_t>(n, 1)) * sizeof(real), c.stream, "mmu scratch");
}

// Limb p (16 bits, the last one signed) of every word, as doubles.
void to_limb(const context& c, const word* a, int p, int limbs, real* out, std::int64_t n) {
  const bool top = p == limbs - 1;
  for_each(c, n, [=] __device__(std::int64_t i) {
    const word v = a[i] >> (16 * p);
    out[i] = static_cast<real>(top ? v : (v & 0xffff));
  });
}

}  // namespace

void mmu(const context& c, const real* a, const real* w, real* out, std::int64_t rows) {
  dgemm(c, a, w, out, rows);
  if (c.float32) for_each(c, rows * c.s, [=] __device__(std::int64_t i) { out[i] = rounded(c, out[i]); });
}

void mmu(const context& c, const word* a, double a_bound, const word* w, double w_bound, word* out, std::int64_t rows) {
  const std::int64_t n = rows * c.s, s2 = std::int64_t{c.s} * c.s;
  if (a_bound * w_bound * c.s < 0x1p53) {  // one exact product
    const auto da = scratch(c, n), dw = scratch(c, s2), dout = scratch(c, n);
    real *pa = da.as<real>(), *pw = dw.as<real>(), *po = dout.as<real>();
    for_each(c, n, [=] __device__(std::int64_t i) { pa[i] = static_cast<real>(a[i]); });
    for_each(c, s2, [=] __device__(std::int64_t i) { pw[i] = static_cast<real>(w[i]); });
    dgemm(c, pa, pw, po, rows);
    for_each(c, n, [=] __device__(std::int64_t i) { out[i] = checked(c, i, static_cast<wide>(po[i])); });
    return;
  }
  const int la = limbs_for(a_bound), lw = limbs_for(w_bound);
  const auto limb_a = scratch(c, n), limb_w = scratch(c, s2), products = scratch(c, n * la * lw);
  for (int p = 0; p < la; ++p) {
    to_limb(c, a, p, la, limb_a.as<real>(), n);
    for (int q = 0; q < lw; ++q) {
      to_limb(c, w, q, lw, limb_w.as<real>(), s2);
      dgemm(c, limb_a.as<real>(), limb_w.as<real>(), products.as<real>() + (p * lw + q) * n, rows);
    }
  }
  const real* pr = products.as<real>();
  for_each(c, n, [=] __device__(std::int64_t i) {
    wide sum = 0;
    double approx = 0;  // the same sum in double: far beyond 64 bits, 128 could wrap
    for (int p = 0; p < la; ++p)
      for (int q = 0; q < lw; ++q) {
        const real part = pr[(p * lw + q) * n + i];
        sum += static_cast<wide>(part) << (16 * (p + q));
        approx += ldexp(part, 16 * (p + q));
      }
    if (fabs(approx) > 0x1p100) {
      report(c.err, width, c.seq, i, approx > 0 ? (wide(1) << 126) : -(wide(1) << 126));
      out[i] = 0;
    } else {
      out[i] = checked(c, i, sum);
    }
  });
}

}  // namespace mmv::cuda_ops
