#include "state_passing_reference.hpp"

#include <cmath>

namespace mmv::tool::kernels {

state_passing_problem make_state_passing_problem(std::int64_t g, int h, int n, int v, decay_layout d,
                                                 double start_rate, std::mt19937_64& rng) {
  state_passing_problem p;
  p.shape = {g, h, n, v, d, std::int64_t(h) * (d == decay_layout::per_row ? n : 1), d == decay_layout::per_row ? n : 1};
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> unit;
  p.local.resize(std::size_t(g * p.lanes()));
  for (auto& x : p.local) x = normal(rng);
  p.log_decay.resize(std::size_t(g * h * p.decay_rows()));
  for (auto& x : p.log_decay) x = unit(rng) < 0.1 ? 0.0 : -unit(rng);  // some decays exactly 1
  p.starts.resize(std::size_t(g));
  for (auto& s : p.starts) s = unit(rng) < start_rate ? 1 : 0;
  return p;
}

void state_passing_reference(const state_passing_problem& p, std::vector<double>& h, std::vector<double>& bound,
                             std::vector<double>* unsegmented) {
  const std::int64_t lanes = p.lanes(), per_head = lanes / p.shape.heads;
  h.assign(p.local.size(), 0.0);
  bound.assign(p.local.size(), 0.0);
  if (unsegmented) unsegmented->assign(p.local.size(), 0.0);
  for (std::int64_t x = 0; x < lanes; ++x) {
    const std::int64_t head = x / per_head, row = p.shape.decay == decay_layout::per_row ? x % per_head / p.shape.cols : 0;
    double carry = 0, carry_abs = 0, unseg_abs = 0;
    for (std::int64_t j = 0; j < p.shape.chunks; ++j) {
      const double decay = std::exp(p.log_decay[(j * p.shape.heads + head) * p.decay_rows() + row]);
      const double u = p.local[j * lanes + x];
      carry = p.starts[j] ? u : decay * carry + u;  // not 0 * carry: an inf must not cross a start
      carry_abs = p.starts[j] ? std::fabs(u) : decay * carry_abs + std::fabs(u);
      unseg_abs = decay * unseg_abs + std::fabs(u);
      h[j * lanes + x] = carry;
      bound[j * lanes + x] = carry_abs;
      if (unsegmented) (*unsegmented)[j * lanes + x] = unseg_abs;
    }
  }
}

}  // namespace mmv::tool::kernels
