// Helpers of the fused kernels' inputs beside the one generator of random inputs
// (mmvram/harness/random_inputs.hpp, namespace mmv::inputs): counts as powers of two and bf16
// bits, and the generator's names that the kernels' commands use unqualified.
#pragma once
#include <cstdint>
#include <string>

#include "mmvram/harness/random_inputs.hpp"

namespace mmv::gpu {}

namespace mmv::tool::kernels {

// The tool drives the GPU half: its names (runtime::, ablation::, cuda_error, the kernels of
// api.hpp) are used here unqualified.
using namespace mmv::gpu;

// The one generator's types and fills (check, bench, stress, accuracy draw their cases with them).
using inputs::count_segments;
using inputs::distribution;
using inputs::dtype;
using inputs::dtype_name;
using inputs::fill_flags;
using inputs::fill_values;
using inputs::mix64;
using inputs::standard_distributions;

// bf16 as raw bits: round a finite float to nearest even, and widen back (exact).
std::uint16_t to_bf16_bits(float f);
float from_bf16_bits(std::uint16_t b);
std::string format_count(std::int64_t n);  // 268435456 -> "2^28", 1048576+3 -> "1048579"

}  // namespace mmv::tool::kernels
