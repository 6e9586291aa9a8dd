// The state-passing kernels' check (kernel_reference.hpp: verify_state_passing), the one rule
// `mmvram kernels state-passing` and `mmvram kernels stress` judge their fp32 states by.
#include "mmvram/harness/kernel_reference.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace mmv::kernel_reference {

namespace {

// The floor added to every state's scale. A state whose scale lies below fp32's normal range
// may come back flushed to zero or as a subnormal; kStatePassingTolerance * 1e-30 = 2e-36 exceeds
// every fp32 subnormal (< 1.2e-38), so such a state passes; beside any scale above 1e-24 the
// floor is below a millionth of it, so ordinary states are judged by their own scale.
constexpr double kScaleFloor = 1e-30;

}  // namespace

verdict verify_state_passing(const float* got, std::int64_t stride, const double* want, const double* scale,
                             std::int64_t n) {
  verdict v;
  for (std::int64_t i = 0; i < n; ++i) {
    const double g = got[i * stride], err = std::fabs(g - want[i]);
    v.max_error = std::max(v.max_error, err);
    if (err <= kStatePassingTolerance * (scale[i] + kScaleFloor)) continue;  // NaN fails here
    if (v.bad++ == 0) {
      std::ostringstream os;
      os.precision(9);
      os << "state " << i << " is " << g << ", want " << want[i];
      v.first_bad = i;
      v.detail = os.str();
    }
  }
  v.pass = v.bad == 0;
  return v;
}

}  // namespace mmv::kernel_reference
