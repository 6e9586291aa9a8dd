// The kernels' view of the harness's state-passing problems (state_passing_reference.hpp).
#include "state_passing_reference.hpp"

namespace mmv::tool::kernels {

state_passing_shape kernel_shape(const inputs::state_passing_problem& p) {
  const state_shape& s = p.lanes_shape;
  const int rows_per_head = s.per_head ? 1 : int(s.rows);
  return {p.chunks, int(s.heads), int(s.rows), int(s.cols), s.per_head ? decay_layout::per_head : decay_layout::per_row,
          s.decay_rows(), rows_per_head};
}

state_passing_problem make_state_passing_problem(std::int64_t g, int h, int n, int v, decay_layout d,
                                                 double start_rate, std::uint64_t seed) {
  state_passing_problem p{inputs::random_state_passing(g, {h, n, v, d == decay_layout::per_head}, start_rate, seed), {}};
  p.shape = kernel_shape(p);
  return p;
}

}  // namespace mmv::tool::kernels
