// The one tolerance policy: how far a float result may lie from its reference, as named rules.
// The simulator's rule (tolerance()) is a proven bound on an MMV-RAM run's rounding; the
// kernels' fp32 rule (f32_bound, with V3's REVERT allowance kRevertCoefficient) is what `mmvram
// kernels` check, bench, stress and accuracy accept (docs/gpu_v3_error.md); the state-passing
// kernels' rule is kStatePassingTolerance. Integers are exact under all of them.
#pragma once
#include "mmvram/model/types.hpp"

#include <cstdint>
#include <string>

namespace mmv {

// ---- The simulator's rule ----

// The allowed |out - ref| of a run of format f on n values with tile size s whose magnitudes
// sum to `magnitude`: a proven bound on the algorithm's rounding plus the reference's (0 for
// integers). The derivation is in tolerance.cpp.
double tolerance(number_format f, std::int64_t n, int s, double magnitude);

// ---- The kernels' fp32 rule ----

// fp32's unit roundoff: the scale of bits_lost and of the checks' scaled errors.
inline constexpr double kF32UnitRoundoff = 0x1p-24;
// f32_bound's constants: kF32BoundBase up to kF32BoundTileItems items.
inline constexpr double kF32BoundBase = 1e-6;
inline constexpr std::int64_t kF32BoundTileItems = 4096;

// Bound on the f32 relative error of a segment of length len: kF32BoundBase up to
// kF32BoundTileItems items, growing as sqrt(len / kF32BoundTileItems) beyond (fp32 rounding of a
// carry accumulated over len / kF32BoundTileItems tiles).
double f32_bound(std::int64_t len);

// V3's REVERT (kernels with speculation_block = B > 0, aligned B-item blocks): the error of
// subtracting speculative prefixes beyond what a scan of the segment's own items makes is at most
// kRevertCoefficient times H, the sum of |x| over the start's block before the segment's start.
// Derived, not measured (docs/gpu_v3_error.md): two MMA levels each within 2^-18 (1 + 2^-5) of
// the sum of |x| they add, an fp32 add at each level, both speculative prefixes (2^-16 (1 + 2^-4)).
inline constexpr double kRevertCoefficient = 0x1.1p-16;

// The kernels' fp32 rule as one sentence (the `f32_bound` field of check's JSON), its numbers
// written from the constants above; speculation_block: V3's block size B, named in the REVERT
// clause.
std::string describe_f32_rule(std::int64_t speculation_block);

// The state-passing kernels' fp32 methods (`mmvram kernels stress`, the GPU tests): at most this
// relative error against the float64 recurrence on |u| (the speculative method: on |u| without
// restarts); fp32 rounding of each multiply-add of the recurrence, tf32 splits included.
inline constexpr double kStatePassingTolerance = 2e-6;

// Bins of a bits-lost histogram: bin 0 counts errors below one unit roundoff (2^-24) of the
// result's own scale, bin b >= 1 those in [2^(b-1), 2^b) units, the last bin everything above.
inline constexpr int kBitsLostBins = 26;

// Bits of fp32's 24 lost at a relative error e: max(0, 24 + log2 e) (0 for e = 0).
double bits_lost(double relative_error);

}  // namespace mmv
