// Fitting a device profile's time model (mmvram/prediction/time_model.hpp) on single-instruction
// timings, the work of `mmvram calibrate`.
#pragma once
#include "mmvram/prediction/time_model.hpp"

#include <vector>

namespace mmv {

// Least-squares fit of t = latency + ns_per_byte * min(bytes, K) + ns_per_byte_beyond_l2 *
// max(0, bytes - K) + ns_per_op * work, K = l2_bytes, on the points (bytes, work, measured ns),
// relative to each point, every constant >= 0 (a negative one is dropped and the rest refitted,
// as is the work term when it is proportional to the bytes). Without a knee (K = 0), without a
// point past it, or with its term dropped, ns_per_byte_beyond_l2 = ns_per_byte (one bandwidth);
// use_work = false fits no work term. With points past the knee it also fits the step (every
// byte of a point past K at the second rate) and keeps whichever leaves the smaller sum of squared
// relative residuals. Fills the residuals.
class_time_model fit_class(const std::vector<double>& bytes, const std::vector<double>& work,
                           const std::vector<double>& ns, bool use_work, double l2_bytes);

// Fits every class of `points` (fit_class; the work term for the MMU, REVSPEC and the block
// prefixes) at one knee for all, p.l2_bytes, and sets each point's predicted_ns: the profile's
// classes and points. With an L2 (p.l2_cache_bytes, else p.l2_bytes, > 0) the knee is chosen
// among j/16 of it, j = 4..16: the one whose fits leave the smallest sum of squared relative
// residuals over all points (the largest on a tie). Throws model_error for a point whose measured
// time is not a finite number > 0 (the fit divides by it).
void fit_profile(device_profile& p, std::vector<training_point> points);

}  // namespace mmv
