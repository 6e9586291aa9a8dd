// The runners of the algorithm table (registry.cpp): each loads the host input into the
// machine (scalar unit, free), calls the algorithm, reads the result back and compares it with
// the sequential reference (verify.hpp). Internal to the harness.
#pragma once
#include "mmvram/harness/reference.hpp"
#include "mmvram/harness/registry.hpp"

#include <chrono>
#include <optional>
#include <type_traits>

namespace mmv::runners {

// Times `body` (load, run, read back) and returns its host result.
template <class F>
auto timed(double& seconds, F body) {
  const auto start = std::chrono::steady_clock::now();
  auto result = body();
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

// The values x of `in` for a machine of word type T: words or reals.
template <class T>
const std::vector<T>& values_of(const algorithm_input& in) {
  if constexpr (std::is_same_v<T, word>) return in.words;
  else return in.reals;
}

// Unsegmented scans: out = inclusive_scan(x).
template <class T, class Algo>
algorithm_outcome run_scan_as(machine& m, const algorithm_input& in, Algo algo) {
  const auto& f = m.config().format;
  const auto x = held(values_of<T>(in), f);
  double seconds = 0;
  const auto got = timed(seconds, [&] { return m.read(algo(m, m.load<T>(x, "x"))); });
  const double mag = std::is_same_v<T, real> ? abs_sum(held(in.reals, f)) : 0;
  return checked(got, reference::inclusive_scan(x), tolerance(f, in.n, m.config().s, mag), seconds, f);
}

// Segmented scans (sum = false) and sums (sum = true) of x with flags f.
template <class T, class Algo>
algorithm_outcome run_segmented_as(machine& m, const algorithm_input& in, bool sum, Algo algo) {
  const auto& f = m.config().format;
  const auto x = held(values_of<T>(in), f);
  double seconds = 0;
  const auto got = timed(seconds, [&] { return m.read(algo(m, m.load<T>(x, "x"), m.load<word>(in.flags, "f"))); });
  const auto want = sum ? reference::segmented_sum(x, in.flags) : reference::segmented_scan(x, in.flags);
  const double mag = std::is_same_v<T, real> ? abs_sum(held(in.reals, f)) : 0;
  return checked(got, want, tolerance(f, in.n, m.config().s, mag), seconds, f);
}

// True on an integer machine.
inline bool is_integer(const machine& m) { return m.config().format == number_format::integer; }

// Entry makers for the two common signatures; `algo` is a generic lambda over vec<T>.
template <class Algo>
algorithm_entry::runner scan_runner(Algo algo) {
  return [algo](machine& m, const algorithm_input& in) {
    return is_integer(m) ? run_scan_as<word>(m, in, algo) : run_scan_as<real>(m, in, algo);
  };
}

template <class Algo>
algorithm_entry::runner segmented_runner(bool sum, Algo algo) {
  return [sum, algo](machine& m, const algorithm_input& in) {
    return is_integer(m) ? run_segmented_as<word>(m, in, sum, algo) : run_segmented_as<real>(m, in, sum, algo);
  };
}

// Decayed scans: h_j = a_j h_{j-1} + b_j, restarted at flags; checked against the double
// reference within tolerance() of the magnitude of the same recurrence on |b|.
algorithm_entry::runner decayed_runner(real_vec (*algo)(machine&, const real_vec&, const real_vec&, const word_vec&));
// State passing: every lane against the one state-passing reference
// (inputs::state_passing_reference), within tolerance() of the largest magnitude of the same
// recurrence on |u|.
algorithm_outcome run_state_passing(machine& m, const algorithm_input& in);
// SpMV: y = A v against the exact row sums, within tolerance() of the sum of |a_rk v_k|.
algorithm_outcome run_spmv(machine& m, const algorithm_input& in);
// SpMV's predicted cost from the matrix's rows, nonzeros and non-empty rows.
std::optional<cost_prediction> predict_spmv(const algorithm_input& in, const machine_config& c);
// x_i y_i and the n x n matrix product, against plain loops (exact: the run raised width_error
// first on anything that does not fit B <= 64 bits).
algorithm_outcome run_elementwise_product(machine& m, const algorithm_input& in);
algorithm_outcome run_matrix_product(machine& m, const algorithm_input& in);
// A predictor from a cost formula of (n, s).
algorithm_entry::predictor by_size(cost_prediction (*f)(std::int64_t, int));

}  // namespace mmv::runners
