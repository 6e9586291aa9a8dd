// CPU references and the comparisons that decide PASS/FAIL: the harness's kernel references
// (mmvram/harness/kernel_reference.hpp) under the kernels' fp32 rule of the one tolerance policy
// (mmvram/harness/tolerance.hpp: f32_bound, kRevertCoefficient, bits_lost), under this tool's
// names.
#pragma once
#include "kernel_inputs.hpp"

#include "mmvram/harness/kernel_reference.hpp"
#include "mmvram/harness/tolerance.hpp"

namespace mmv::tool::kernels {

using kernel_reference::verdict;
using kernel_reference::verify_copy;
using kernel_reference::verify_reduce;
using kernel_reference::verify_segmented_scan;
using kernel_reference::verify_segmented_sum;
using mmv::bits_lost;
using mmv::f32_bound;
using mmv::kBitsLostBins;
using mmv::kRevertCoefficient;

}  // namespace mmv::tool::kernels
