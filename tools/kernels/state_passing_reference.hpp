// Host side of the state-passing checks: a random packed problem and the float64 recurrence it
// is compared with, shared by the Catch2 GPU tests and `mmvram kernels stress`.
#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include "mmvram/gpu/state_passing.hpp"
#include "mmvram/harness/tolerance.hpp"

namespace mmv::gpu {}

namespace mmv::tool::kernels {

// The tool drives the GPU half: its names (runtime::, ablation::, cuda_error, the kernels of
// api.hpp) are used here unqualified.
using namespace mmv::gpu;

struct state_passing_problem {
  state_passing_shape shape;
  std::vector<double> local, log_decay;  // [G][H][N][V], [G][H][N] or [G][H]
  std::vector<std::uint8_t> starts;      // [G]
  std::int64_t lanes() const { return std::int64_t(shape.heads) * shape.rows * shape.cols; }
  std::int64_t decay_rows() const { return shape.decay == decay_layout::per_row ? shape.rows : 1; }
};

// G chunks of H x N x V lanes: local states ~ N(0, 1), log-decays uniform in (-1, 0] with one in
// ten exactly 0 (decay 1), each chunk a start with probability start_rate.
state_passing_problem make_state_passing_problem(std::int64_t g, int h, int n, int v, decay_layout d,
                                                 double start_rate, std::mt19937_64& rng);

// h_j = exp(l_j) h_{j-1} + u_j, restarted at starts, in float64; also the same recurrence on |u|
// (bound: the scale of the fp32 rounding error) and on |u| without restarts (unsegmented: what
// the speculative method's repair subtracts from).
void state_passing_reference(const state_passing_problem& p, std::vector<double>& h, std::vector<double>& bound,
                             std::vector<double>* unsegmented = nullptr);

// The relative error the fp32 methods are held to against `bound` (or `unsegmented` for the
// speculative method): the kernels' state-passing rule of the one tolerance policy.
using mmv::kStatePassingTolerance;

}  // namespace mmv::tool::kernels
