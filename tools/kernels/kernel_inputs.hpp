// Test and benchmark inputs of the fused kernels: the one generator of random inputs
// (element types, segment-length distributions, non-zero values and 0/1 flags) lives in
// mmvram/harness/random_inputs.hpp; its names are used here under this tool's names.
// Beside it: counts as powers of two and bf16 bits.
#pragma once
#include "mmvram/harness/random_inputs.hpp"

#include <cstdint>
#include <string>

namespace mmv::gpu {}

namespace mmv::tool::kernels {

// The tool drives the GPU half: its names (runtime::, ablation::, cuda_error, the kernels of
// api.hpp) are used here unqualified.
using namespace mmv::gpu;

using inputs::count_segments;
using inputs::distribution;
using inputs::dtype;
using inputs::dtype_name;
using inputs::fill_flags;
using inputs::fill_values;
using inputs::mix64;
using inputs::parallel_for;
using inputs::parse_dtype;
using inputs::standard_distributions;

// bf16 as raw bits: round a finite float to nearest even, and widen back (exact).
std::uint16_t to_bf16_bits(float f);
float from_bf16_bits(std::uint16_t b);
std::string format_count(std::int64_t n);  // 268435456 -> "2^28", 1048576+3 -> "1048579"

}  // namespace mmv::tool::kernels
