// The cuda backend of the machine (model/include/mmvram/model/backend.hpp): every instruction
// runs as its own GPU operation on device-resident vectors, timed with CUDA events.
#pragma once

namespace mmv::gpu {

// Makes `machine_config::backend = "cuda"` available to every machine of this program. Idempotent.
// A machine made afterwards throws model_error ("no CUDA device ...") where no GPU is present.
void register_cuda_backend();

}  // namespace mmv::gpu
