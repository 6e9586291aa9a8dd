// The random input of one run (run_inputs.hpp): the simulator's rules of values, segment starts,
// decays, random CSR matrices and state-passing lanes on the one stream of random_inputs.hpp.
#include "mmvram/harness/run_inputs.hpp"

#include "mmvram/harness/sparse_inputs.hpp"
#include "mmvram/harness/state_passing_inputs.hpp"
#include "mmvram/harness/verify.hpp"

#include <algorithm>
#include <climits>
#include <cmath>

namespace mmv::inputs {

namespace {

std::int64_t word_max_of(int bits) { return bits == 64 ? INT64_MAX : (std::int64_t{1} << (bits - 1)) - 1; }

// The segment starts of a random input of n positions: the distribution keyed by the seed (the
// kernels' flags for that seed; no stream draws), else the library's Bernoulli rule with
// p = density on the run's stream.
std::vector<word> segment_starts(stream& s, std::int64_t n, const run_draw& d) {
  return d.dist ? distribution_flags(*d.dist, n, d.seed) : bounded_flags(s, n, d.density);
}

// A random CSR matrix with n nonzeros: each nonzero starts a new row where segment_starts()
// sets a flag (the first always does), the matrix is square, columns are uniform.
csr_matrix random_matrix(stream& s, std::int64_t n, const run_draw& d, const std::vector<real>& values) {
  const auto f = segment_starts(s, n, d);
  csr_matrix a;
  for (std::int64_t i = 0; i < n; ++i)
    if (f[i] || i == 0) a.row_ptr.push_back(i);  // the first row starts at 0 (no_flags, first_flag_0)
  a.row_ptr.push_back(n);
  a.rows = static_cast<std::int64_t>(a.row_ptr.size()) - 1;
  a.cols = a.rows;
  a.col_idx.resize(static_cast<std::size_t>(n));
  for (auto& c : a.col_idx) c = s.integer(0, a.cols - 1);
  a.values = values;
  return a;
}

// The BigBird matrix of side n (d.bigbird: BLOCK, RANDOM[, WINDOW, GLOBAL]); on integer
// machines its values become integers in [-m, m].
csr_matrix bigbird(const run_draw& d, std::int64_t n, bool integer, int bits) {
  const auto& b = d.bigbird;
  csr_matrix a = bigbird_matrix(n, b[0], static_cast<int>(b[1]), static_cast<int>(b.size() > 2 ? b[2] : 1),
                                static_cast<int>(b.size() > 3 ? b[3] : 2), d.seed);
  const std::int64_t m = d.max_value.value_or(default_max_value(input_shape::sparse_matrix, a.nonzeros(), bits));
  if (integer)
    for (auto& v : a.values) v = std::round(v * static_cast<double>(m));
  return a;
}

// ⌊√v⌋ for v >= 0, exact for every int64 (the double estimate corrected by at most a step).
std::int64_t floor_sqrt(std::int64_t v) {
  auto r = static_cast<std::int64_t>(std::sqrt(static_cast<double>(v)));
  while (r > 0 && static_cast<unsigned __int128>(r) * static_cast<unsigned __int128>(r) > static_cast<unsigned __int128>(v)) --r;
  while (static_cast<unsigned __int128>(r + 1) * static_cast<unsigned __int128>(r + 1) <= static_cast<unsigned __int128>(v)) ++r;
  return r;
}

// State passing's random input: random_state_passing of n chunks of the lanes keyed by the seed
// at start rate `density` (u about standard normal, log-decays in (-1, 0] with one in ten
// exactly 0); |u| unless signed, the distribution's chunk starts when given.
algorithm_input random_lanes(const run_draw& d, number_format format) {
  state_passing_problem p = random_state_passing(d.n, d.lanes, d.density, d.seed);
  if (!d.signed_values)
    for (auto& u : p.local) u = std::fabs(u);
  algorithm_input in;
  in.n = d.n;
  in.lanes = d.lanes;
  in.reals = held(std::move(p.local), format);
  in.log_decays = held(std::move(p.log_decay), format);
  in.flags = d.dist ? distribution_flags(*d.dist, d.n, d.seed) : std::vector<word>(p.starts.begin(), p.starts.end());
  return in;
}

}  // namespace

std::int64_t default_max_value(input_shape shape, std::int64_t n, int bits) {
  const std::int64_t top = word_max_of(bits);
  const std::int64_t k = std::max<std::int64_t>(n, 1);
  const shape_facts& f = facts_of(shape);
  if (f.square) {
    // ⌊top / n³⌋ without overflow: the quotient is 0 once n³ exceeds top.
    const bool past = k > 2097151 || k * k * k > top;
    return std::max<std::int64_t>(1, past ? 0 : floor_sqrt(top / (k * k * k)));
  }
  if (f.second) return floor_sqrt(top);
  if (f.matrix) return std::clamp<std::int64_t>(floor_sqrt(top / k), 1, 100);
  return std::clamp<std::int64_t>(top / k, 1, 100);
}

algorithm_input random_run_input(input_shape shape, const run_draw& d, number_format format, int bits) {
  const bool integer = format == number_format::integer;
  const shape_facts& sh = facts_of(shape);
  stream s(d.seed);
  const std::int64_t n = d.n;
  const std::int64_t side = sh.square ? n * n : n;
  const std::int64_t m = d.max_value.value_or(default_max_value(shape, n, bits));
  algorithm_input in;
  in.n = n;
  if (sh.matrix) {
    if (d.bigbird.empty()) {
      std::vector<real> values;
      if (integer)
        for (auto w : bounded_words(s, n, m, d.signed_values)) values.push_back(static_cast<real>(w));
      else
        values = bounded_reals(s, n, d.signed_values, format == number_format::float32);
      in.matrix = random_matrix(s, n, d, values);
    } else {
      // A BigBird matrix makes its own values: the n values of a random matrix are skipped, not
      // drawn (one draw each), so the vector below is the one drawn before.
      s.skip(static_cast<std::uint64_t>(n));
      in.matrix = bigbird(d, n, integer, bits);
    }
    in.n = in.matrix.nonzeros();
    const std::int64_t mv = d.max_value.value_or(default_max_value(shape, in.n, bits));
    if (integer) in.words = bounded_words(s, in.matrix.cols, mv, d.signed_values);
    else in.reals = bounded_reals(s, in.matrix.cols, d.signed_values, format == number_format::float32);
    return in;
  }
  if (sh.lanes) return random_lanes(d, format);
  if (integer) in.words = bounded_words(s, side, m, d.signed_values);
  else in.reals = bounded_reals(s, side, d.signed_values, format == number_format::float32);
  if (sh.flags) in.flags = segment_starts(s, n, d);
  if (sh.decays) {
    in.decays.resize(static_cast<std::size_t>(n));
    for (auto& a : in.decays) a = 0.5 + 0.5 * s.unit();
    in.decays = held(std::move(in.decays), format);
  }
  if (sh.second) in.words2 = bounded_words(s, side, m, d.signed_values);
  return in;
}

}  // namespace mmv::inputs
