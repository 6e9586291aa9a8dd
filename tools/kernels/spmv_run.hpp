// CSR SpMV on the GPU for `mmvram kernels spmv`, `kernels check spmv` and the GPU tests: a
// matrix and x on the device in fp32 or fp64, the implementations (mmvram's fused spmv_csr and
// cuSPARSE's two CSR algorithms), the CPU reference and the check against the derived bound.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mmvram/algorithms/applications.hpp"
#include "mmvram/gpu/runtime/buffer.hpp"

namespace mmv::tool::kernels {

// ours: spmv_csr on the int32 row offsets (int64 where the matrix has none: nnz or rows >= 2^31);
// ours_i64: spmv_csr on the int64 row offsets.
enum class spmv_impl { ours, ours_i64, cusparse_default, cusparse_merge };
// The name of k in tables and JSON: "mmvram_spmv_csr", "mmvram_spmv_csr_i64", "cusparse_default",
// "cusparse_csr_alg2".
const char* spmv_impl_name(spmv_impl k);
// Every implementation, ours first (the order of the tables and the JSON).
bool is_ours(spmv_impl k);
std::vector<spmv_impl> spmv_impls();

// A on the device as T (values rounded from double), int64 row offsets and int32 ones (empty
// when nnz >= 2^31), int32 columns, x (rounded to T) and y. offset: values
// and x start `offset` elements past an aligned address (the unaligned-pointer cases).
template <class T>
struct device_spmv {
  std::int64_t rows = 0, cols = 0, nnz = 0;
  gpu::runtime::device_buffer row_offsets, row_offsets32, col_indices, value_buf, x_buf, y_buf;
  std::size_t offset = 0;
  const T* values() const { return value_buf.as<T>() + offset; }
  const T* x() const { return x_buf.as<T>() + offset; }
  T* y() const { return y_buf.as<T>(); }
  bool cusparse_ok() const { return nnz < (std::int64_t(1) << 31) && rows < (std::int64_t(1) << 31); }
};
// Uploads a (validated: rows, cols < 2^31) and x (a.cols entries); throws model_error otherwise.
template <class T>
device_spmv<T> upload_spmv(const csr_matrix& a, const std::vector<double>& x, std::size_t offset = 0);

// One callable implementation on a device_spmv: run() writes y (asynchronous on the default
// stream). Set-up (temporary storage, cuSPARSE's handle, buffer and preprocess) is done once in
// make_spmv_runner, outside any timing. Throws cuda_error (cuSPARSE without int32 indices too).
class spmv_runner {
 public:
  virtual ~spmv_runner() = default;
  virtual void run() = 0;
  virtual std::size_t temp_bytes() const = 0;
  virtual bool preprocessed() const = 0;  // set-up work that cuSPARSE's preprocess step did
};
template <class T>
std::unique_ptr<spmv_runner> make_spmv_runner(spmv_impl k, const device_spmv<T>& m);

// The CPU reference with a and x rounded to T: y[r] and s[r] = sum |a x| of row r, kept in long
// double (x86-64's 64-bit significand, u = 2^-64): rounding y to double would add 2^-53 |y| to the
// error, a term the bound below does not hold (an fp64 row of one entry failed by one ulp).
struct spmv_reference {
  std::vector<long double> y, abs_sum;
  std::vector<std::int64_t> length;
};
template <class T>
spmv_reference spmv_reference_of(const csr_matrix& a, const std::vector<double>& x);

// A result against the reference: each row within bound(r) = gamma_k(u) s[r] + gamma_L(2^-64) s[r]
// + L * (the type's smallest subnormal), evaluated in long double, with k = spmv_rounding_depth(L) for ours (spmv.hpp,
// either offset type)
// and k = L for a rival (any summation order of the L products); NaN fails. A row where k u >= 1
// has no bound of this form: it is counted as not bounded and only required to be finite.
struct spmv_verdict {
  bool pass = true;
  std::int64_t bad_rows = 0, worst_row = -1;
  std::int64_t unbounded_rows = 0;  // rows held to finiteness only (k u >= 1)
  double worst_ratio = 0;  // max |y - ref| / bound
  std::string detail;
};
template <class T>
spmv_verdict verify_spmv(const std::vector<T>& y, const spmv_reference& ref, spmv_impl k);

// Runs k once on m (zeroing y first), copies y back and verifies it.
template <class T>
spmv_verdict check_spmv(spmv_impl k, const device_spmv<T>& m, const spmv_reference& ref);

// x of n entries uniform in [-1, 1) from a stream keyed by seed.
std::vector<double> spmv_x(std::int64_t n, std::uint64_t seed);

}  // namespace mmv::tool::kernels
