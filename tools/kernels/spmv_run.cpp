// CSR SpMV on the GPU (spmv_run.hpp): upload, the implementations, the reference and the check.
#include "spmv_run.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

#include "mmvram/gpu/baselines/cusparse_spmv.hpp"
#include "mmvram/gpu/runtime/error.hpp"
#include "mmvram/gpu/spmv.hpp"
#include "mmvram/harness/random_inputs.hpp"
#include "mmvram/model/types.hpp"

namespace mmv::tool::kernels {
namespace {

namespace runtime = gpu::runtime;

template <class V>
runtime::device_buffer upload(const std::vector<V>& h, std::size_t pad = 0) {
  runtime::device_buffer b((h.size() + pad) * sizeof(V));
  if (!h.empty())
    runtime::check(cudaMemcpy(b.as<V>() + pad, h.data(), h.size() * sizeof(V), cudaMemcpyHostToDevice), "cudaMemcpy");
  return b;
}

template <class T, class O>
class ours_runner final : public spmv_runner {
 public:
  ours_runner(const device_spmv<T>& m, const O* row_offsets) : m_(m), ro_(row_offsets) {
    gpu::spmv_csr(ro_, m.col_indices.template as<std::int32_t>(), m.values(), m.x(), m.y(), m.rows, m.nnz, nullptr,
                  bytes_);
    temp_ = runtime::device_buffer(bytes_);
  }
  void run() override {
    std::size_t b = bytes_;
    gpu::spmv_csr(ro_, m_.col_indices.template as<std::int32_t>(), m_.values(), m_.x(), m_.y(), m_.rows, m_.nnz,
                  temp_.get(), b);
  }
  std::size_t temp_bytes() const override { return bytes_; }
  bool preprocessed() const override { return false; }

 private:
  const device_spmv<T>& m_;
  const O* ro_;
  std::size_t bytes_ = 0;
  runtime::device_buffer temp_;
};

template <class T>
class cusparse_runner final : public spmv_runner {
 public:
  cusparse_runner(gpu::baselines::cusparse_spmv_alg alg, const device_spmv<T>& m)
      : s_(alg, m.row_offsets32.template as<std::int32_t>(), m.col_indices.template as<std::int32_t>(), m.values(),
           m.x(), m.y(), m.rows, m.cols, m.nnz) {}
  void run() override { s_.run(); }
  std::size_t temp_bytes() const override { return s_.buffer_bytes(); }
  bool preprocessed() const override { return s_.preprocessed(); }

 private:
  gpu::baselines::cusparse_spmv s_;
};

gpu::baselines::cusparse_spmv_alg cusparse_alg(spmv_impl k) {
  return k == spmv_impl::cusparse_merge ? gpu::baselines::cusparse_spmv_alg::csr_merge
                                        : gpu::baselines::cusparse_spmv_alg::default_alg;
}

// gamma_k = k u / (1 - k u), for k u < 1 (beyond it there is no bound of this form).
double gamma(double k, double u) { return k * u / (1 - k * u); }

}  // namespace

const char* spmv_impl_name(spmv_impl k) {
  if (k == spmv_impl::ours) return "mmvram_spmv_csr";
  if (k == spmv_impl::ours_i64) return "mmvram_spmv_csr_i64";
  return gpu::baselines::cusparse_spmv_alg_name(cusparse_alg(k));
}

std::vector<spmv_impl> spmv_impls() {
  return {spmv_impl::ours, spmv_impl::ours_i64, spmv_impl::cusparse_default, spmv_impl::cusparse_merge};
}

bool is_ours(spmv_impl k) { return k == spmv_impl::ours || k == spmv_impl::ours_i64; }

template <class T>
device_spmv<T> upload_spmv(const csr_matrix& a, const std::vector<double>& x, std::size_t offset) {
  validate_csr(a);
  if (a.rows >= (std::int64_t(1) << 31) || a.cols >= (std::int64_t(1) << 31))
    throw model_error("spmv: rows and columns must be below 2^31 (int32 column indices)");
  if (static_cast<std::int64_t>(x.size()) != a.cols) throw model_error("spmv: x needs one entry per column");
  device_spmv<T> m;
  m.rows = a.rows, m.cols = a.cols, m.nnz = a.nonzeros(), m.offset = offset;
  m.row_offsets = upload(a.row_ptr);
  if (m.cusparse_ok()) m.row_offsets32 = upload(std::vector<std::int32_t>(a.row_ptr.begin(), a.row_ptr.end()));
  m.col_indices = upload(std::vector<std::int32_t>(a.col_idx.begin(), a.col_idx.end()));
  m.value_buf = upload(std::vector<T>(a.values.begin(), a.values.end()), offset);
  m.x_buf = upload(std::vector<T>(x.begin(), x.end()), offset);
  m.y_buf = runtime::device_buffer(static_cast<std::size_t>(a.rows) * sizeof(T));
  return m;
}

template <class T>
std::unique_ptr<spmv_runner> make_spmv_runner(spmv_impl k, const device_spmv<T>& m) {
  if (k == spmv_impl::ours && m.cusparse_ok())
    return std::make_unique<ours_runner<T, std::int32_t>>(m, m.row_offsets32.template as<std::int32_t>());
  if (is_ours(k)) return std::make_unique<ours_runner<T, std::int64_t>>(m, m.row_offsets.template as<std::int64_t>());
  if (!m.cusparse_ok()) throw gpu::cuda_error("cuSPARSE needs int32 indices: nnz and rows below 2^31");
  return std::make_unique<cusparse_runner<T>>(cusparse_alg(k), m);
}

template <class T>
spmv_reference spmv_reference_of(const csr_matrix& a, const std::vector<double>& x) {
  spmv_reference r;
  r.y.resize(static_cast<std::size_t>(a.rows));
  r.abs_sum.resize(r.y.size());
  r.length.resize(r.y.size());
  for (std::int64_t i = 0; i < a.rows; ++i) {
    long double s = 0, s_abs = 0;
    for (std::int64_t e = a.row_ptr[i]; e < a.row_ptr[i + 1]; ++e) {
      const long double p = static_cast<long double>(static_cast<T>(a.values[e])) *
                            static_cast<long double>(static_cast<T>(x[static_cast<std::size_t>(a.col_idx[e])]));
      s += p, s_abs += std::fabs(p);
    }
    r.y[i] = s, r.abs_sum[i] = s_abs;
    r.length[i] = a.row_ptr[i + 1] - a.row_ptr[i];
  }
  return r;
}

template <class T>
spmv_verdict verify_spmv(const std::vector<T>& y, const spmv_reference& ref, spmv_impl k) {
  spmv_verdict v;
  const double u = std::numeric_limits<T>::epsilon() / 2, tiny = std::numeric_limits<T>::denorm_min();
  for (std::size_t r = 0; r < y.size(); ++r) {
    const double len = double(ref.length[r]);
    const double depth = is_ours(k) ? double(gpu::spmv_rounding_depth(ref.length[r])) : len;
    long double bound = NAN;
    double ratio = 0;
    if (depth * u >= 1 || len * 0x1p-64 >= 1) {  // not bounded: held to finiteness only
      ++v.unbounded_rows;
      ratio = std::isfinite(static_cast<double>(y[r])) ? 0 : INFINITY;
    } else {
      bound = (static_cast<long double>(gamma(depth, u)) + gamma(len, 0x1p-64)) * ref.abs_sum[r] + len * tiny;
      const long double err = std::fabs(static_cast<long double>(y[r]) - ref.y[r]);
      ratio = err == 0 ? 0 : bound > 0 ? double(err / bound) : INFINITY;
    }
    if (!(ratio <= 1)) {
      ++v.bad_rows;
      if (v.pass) {
        char buf[200];
        std::snprintf(buf, sizeof buf, "row %zu (length %lld): got %.17g, reference %.21Lg, bound %.3Lg", r,
                      static_cast<long long>(ref.length[r]), double(y[r]), ref.y[r], bound);
        v.detail = buf;
      }
      v.pass = false;
    }
    if (!(ratio <= v.worst_ratio)) v.worst_ratio = std::isnan(ratio) ? INFINITY : ratio, v.worst_row = std::int64_t(r);
  }
  if (!v.pass) v.detail = std::to_string(v.bad_rows) + " rows beyond the bound; first: " + v.detail;
  return v;
}

template <class T>
spmv_verdict check_spmv(spmv_impl k, const device_spmv<T>& m, const spmv_reference& ref) {
  const auto r = make_spmv_runner(k, m);
  if (m.rows > 0) runtime::check(cudaMemset(m.y(), 0xff, static_cast<std::size_t>(m.rows) * sizeof(T)), "cudaMemset");
  r->run();
  std::vector<T> y(static_cast<std::size_t>(m.rows));
  runtime::check(cudaDeviceSynchronize(), spmv_impl_name(k));
  if (m.rows > 0) runtime::check(cudaMemcpy(y.data(), m.y(), y.size() * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
  return verify_spmv(y, ref, k);
}

std::vector<double> spmv_x(std::int64_t n, std::uint64_t seed) {
  inputs::stream d(inputs::mix64(seed ^ 0x78766563ULL));
  std::vector<double> x(static_cast<std::size_t>(n));
  for (auto& v : x) v = 2 * d.unit() - 1;
  return x;
}

#define MMVRAM_SPMV_INSTANTIATE(T)                                                                              \
  template device_spmv<T> upload_spmv<T>(const csr_matrix&, const std::vector<double>&, std::size_t);           \
  template std::unique_ptr<spmv_runner> make_spmv_runner<T>(spmv_impl, const device_spmv<T>&);                  \
  template spmv_reference spmv_reference_of<T>(const csr_matrix&, const std::vector<double>&);                  \
  template spmv_verdict verify_spmv<T>(const std::vector<T>&, const spmv_reference&, spmv_impl);                \
  template spmv_verdict check_spmv<T>(spmv_impl, const device_spmv<T>&, const spmv_reference&);
MMVRAM_SPMV_INSTANTIATE(float)
MMVRAM_SPMV_INSTANTIATE(double)
#undef MMVRAM_SPMV_INSTANTIATE

}  // namespace mmv::tool::kernels
