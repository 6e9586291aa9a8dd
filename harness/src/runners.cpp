// The runners of the algorithm table that are not templates (runners.hpp).
#include "runners.hpp"

#include "mmvram/algorithms/applications.hpp"
#include "mmvram/algorithms/state_passing.hpp"
#include "mmvram/harness/state_passing_inputs.hpp"

#include <algorithm>
#include <cmath>

namespace mmv::runners {

// Decayed scans: h_j = a_j h_{j-1} + b_j, restarted at flags; checked against the double
// reference within tolerance() of the magnitude of the same recurrence on |b|.
algorithm_entry::runner decayed_runner(real_vec (*algo)(machine&, const real_vec&, const real_vec&, const word_vec&)) {
  return [algo](machine& m, const algorithm_input& in) {
    const auto& f = m.config().format;
    const auto a = held(in.decays, f), b = held(in.reals, f);
    double seconds = 0;
    const auto got = timed(seconds, [&] {
      return m.read(algo(m, m.load<real>(a, "a"), m.load<real>(b, "b"), m.load<word>(in.flags, "f")));
    });
    std::vector<real> abs_b(b.size());
    std::transform(b.begin(), b.end(), abs_b.begin(), [](real v) { return std::fabs(v); });
    const auto bound = reference::decayed_scan(a, abs_b, in.flags);
    const double mag = bound.empty() ? 0 : *std::max_element(bound.begin(), bound.end());
    return checked(got, reference::decayed_scan(a, b, in.flags), tolerance(f, in.n, m.config().s, mag), seconds, f);
  };
}

// State passing: every lane's h_j = exp(l_j) h_{j-1} + u_j, restarted at the chunk starts;
// checked against the one reference (inputs::state_passing_reference) within tolerance() of the
// largest value of the same recurrence on |u|.
algorithm_outcome run_state_passing(machine& m, const algorithm_input& in) {
  const auto& f = m.config().format;
  const auto u = held(in.reals, f), l = held(in.log_decays, f);
  double seconds = 0;
  const auto got = timed(seconds, [&] {
    return m.read(state_passing_scan(m, m.load<real>(u, "u"), m.load<real>(l, "l"), m.load<word>(in.flags, "f"), in.lanes));
  });
  inputs::state_passing_problem p{in.n, in.lanes, u, l, std::vector<std::uint8_t>(in.flags.begin(), in.flags.end())};
  std::vector<double> want, bound;
  inputs::state_passing_reference(p, want, bound);
  const double mag = bound.empty() ? 0 : *std::max_element(bound.begin(), bound.end());
  return checked(got, want, tolerance(f, in.n, m.config().s, mag), seconds, f);
}

// SpMV: y = A v. The reference (reference::spmv) sums each row's exact products without rounding
// error; the float tolerance scales with reference::spmv_magnitude, the sum of |a_rk v_k| over
// all entries, which SCD's speculative scan runs through.
algorithm_outcome run_spmv(machine& m, const algorithm_input& in) {
  const csr_matrix& a = in.matrix;
  double seconds = 0;
  if (is_integer(m)) {  // the reference after the run: a width_error would have stopped it
    const auto got = timed(seconds, [&] { return m.read(spmv_csr(m, a, m.load<word>(in.words, "v"))); });
    return checked(got, reference::spmv(a, in.words), 0, seconds, m.config().format);
  }
  csr_matrix rounded = a;
  std::vector<real> v = in.reals;
  if (m.config().format == number_format::float32) {
    for (auto& x : rounded.values) x = static_cast<float>(x);
    for (auto& x : v) x = static_cast<float>(x);
  }
  const auto got = timed(seconds, [&] { return m.read(spmv_csr(m, rounded, m.load<real>(v, "v"))); });
  const auto& f = m.config().format;
  return checked(got, reference::spmv(rounded, v), tolerance(f, in.n, m.config().s, reference::spmv_magnitude(rounded, v)),
                 seconds, f);
}

std::optional<cost_prediction> predict_spmv(const algorithm_input& in, const machine_config& c) {
  const auto& a = in.matrix;
  std::int64_t nonempty = 0;
  for (std::int64_t r = 0; r < a.rows; ++r) nonempty += a.row_ptr[r + 1] > a.row_ptr[r];
  return spmv_csr_predicted_cost(a.rows, a.nonzeros(), nonempty, c.s,
                                 c.format == number_format::integer ? c.word_bits : 0);
}

// The products' references (reference.hpp) are computed after the run: it raises width_error on
// any product or sum that does not fit B <= 64 bits, so their int64 arithmetic cannot overflow.
algorithm_outcome run_elementwise_product(machine& m, const algorithm_input& in) {
  double seconds = 0;
  const auto got = timed(seconds, [&] {
    return m.read(elementwise_product(m, m.load<word>(in.words, "x"), m.load<word>(in.words2, "y")));
  });
  return checked(got, reference::elementwise_product(in.words, in.words2), 0, seconds, number_format::integer);
}

algorithm_outcome run_matrix_product(machine& m, const algorithm_input& in) {
  const std::int64_t n = in.n;
  double seconds = 0;
  const auto got = timed(seconds, [&] {
    return matrix_product(m, m.load<word>(in.words, "X"), m.load<word>(in.words2, "Y"), n);
  });
  return checked(got, reference::matrix_product(in.words, in.words2, n), 0, seconds, number_format::integer);
}

algorithm_entry::predictor by_size(cost_prediction (*f)(std::int64_t, int)) {
  return [f](const algorithm_input& in, const machine_config& c) { return std::optional(f(in.n, c.s)); };
}

}  // namespace mmv::runners
