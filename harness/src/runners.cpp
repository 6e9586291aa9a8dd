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

// SpMV: y = A v. The reference sums each row's exact products without rounding error (integers:
// exactly; reals: reference::exact_sum); the
// float tolerance scales with the sum of |a_rk v_k| over all entries, which SCD's speculative
// scan runs through.
algorithm_outcome run_spmv(machine& m, const algorithm_input& in) {
  const csr_matrix& a = in.matrix;
  double seconds = 0;
  if (is_integer(m)) {  // the reference after the run: a width_error would have stopped it
    const auto got = timed(seconds, [&] { return m.read(spmv_csr(m, a, m.load<word>(in.words, "v"))); });
    std::vector<word> want(static_cast<std::size_t>(a.rows), 0);
    for (std::int64_t r = 0; r < a.rows; ++r)
      for (auto k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) want[r] += static_cast<word>(a.values[k]) * in.words[a.col_idx[k]];
    return checked(got, want, 0, seconds, m.config().format);
  }
  csr_matrix rounded = a;
  std::vector<real> v = in.reals;
  if (m.config().format == number_format::float32) {
    for (auto& x : rounded.values) x = static_cast<float>(x);
    for (auto& x : v) x = static_cast<float>(x);
  }
  std::vector<real> want(static_cast<std::size_t>(a.rows), 0.0);
  double mag = 0;
  for (std::int64_t r = 0; r < a.rows; ++r) {
    reference::exact_sum row;
    for (auto k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
      row.add_product(rounded.values[k], v[a.col_idx[k]]);
      mag += std::fabs(rounded.values[k] * v[a.col_idx[k]]);
    }
    want[r] = row.value();
  }
  const auto got = timed(seconds, [&] { return m.read(spmv_csr(m, rounded, m.load<real>(v, "v"))); });
  const auto& f = m.config().format;
  return checked(got, want, tolerance(f, in.n, m.config().s, mag), seconds, f);
}

std::optional<cost_prediction> predict_spmv(const algorithm_input& in, const machine_config& c) {
  const auto& a = in.matrix;
  std::int64_t nonempty = 0;
  for (std::int64_t r = 0; r < a.rows; ++r) nonempty += a.row_ptr[r + 1] > a.row_ptr[r];
  return spmv_csr_predicted_cost(a.rows, a.nonzeros(), nonempty, c.s,
                                 c.format == number_format::integer ? c.word_bits : 0);
}

// The products' references are computed after the run: it raises width_error on any product
// or sum that does not fit B <= 64 bits, so the host arithmetic below cannot overflow.
algorithm_outcome run_elementwise_product(machine& m, const algorithm_input& in) {
  double seconds = 0;
  const auto got = timed(seconds, [&] {
    return m.read(elementwise_product(m, m.load<word>(in.words, "x"), m.load<word>(in.words2, "y")));
  });
  std::vector<word> want(in.words.size());
  for (std::size_t i = 0; i < want.size(); ++i) want[i] = in.words[i] * in.words2[i];
  return checked(got, want, 0, seconds, number_format::integer);
}

algorithm_outcome run_matrix_product(machine& m, const algorithm_input& in) {
  const std::int64_t n = in.n;
  double seconds = 0;
  const auto got = timed(seconds, [&] {
    return matrix_product(m, m.load<word>(in.words, "X"), m.load<word>(in.words2, "Y"), n);
  });
  std::vector<word> want(static_cast<std::size_t>(n * n), 0);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t k = 0; k < n; ++k)
      for (std::int64_t j = 0; j < n; ++j) want[i * n + j] += in.words[i * n + k] * in.words2[k * n + j];
  return checked(got, want, 0, seconds, number_format::integer);
}

algorithm_entry::predictor by_size(cost_prediction (*f)(std::int64_t, int)) {
  return [f](const algorithm_input& in, const machine_config& c) { return std::optional(f(in.n, c.s)); };
}

}  // namespace mmv::runners
