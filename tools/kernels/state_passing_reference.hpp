// The kernels' view of the harness's state-passing problems and float64 recurrence
// (mmvram/harness/state_passing_inputs.hpp), shared by the Catch2 GPU tests, `mmvram kernels
// stress` and `mmvram kernels state-passing`: a problem with the packed shape the kernels take.
#pragma once
#include <cstdint>

#include "mmvram/gpu/state_passing.hpp"
#include "mmvram/harness/state_passing_inputs.hpp"
#include "mmvram/harness/tolerance.hpp"

namespace mmv::gpu {}

namespace mmv::tool::kernels {

// The tool drives the GPU half: its names (runtime::, ablation::, cuda_error, the kernels of
// api.hpp) are used here unqualified.
using namespace mmv::gpu;

// The packed shape of p's arrays as the kernels read them: log-decays [G][H][N] (chunk stride
// H N, head stride N) or [G][H] per head (chunk stride H, head stride 1).
state_passing_shape kernel_shape(const inputs::state_passing_problem& p);

// A harness problem with its kernel shape.
struct state_passing_problem : inputs::state_passing_problem {
  state_passing_shape shape;
};

// inputs::random_state_passing of G chunks of H x N x V lanes with decay layout d, and its shape.
state_passing_problem make_state_passing_problem(std::int64_t g, int h, int n, int v, decay_layout d,
                                                 double start_rate, std::uint64_t seed);

using inputs::state_passing_lane;
using inputs::state_passing_reference;

// The relative error the fp32 methods are held to against the |u| recurrence (bound; for the
// speculative method and unsegmented runs: without restarts): the one tolerance policy's rule.
using mmv::kStatePassingTolerance;

}  // namespace mmv::tool::kernels
