// Building the input of one run. Random inputs come from one SplitMix64 stream seeded by
// --seed (the one generator, mmvram/harness/random_inputs.hpp: its bounded rule), mapped to
// values without the standard library's distributions, so a seed gives the same input on
// every platform. File inputs are checked for length and 0/1 flags.
#include "inputs.hpp"

#include "memory.hpp"

#include "mmvram/harness/random_inputs.hpp"
#include "mmvram/harness/sparse_inputs.hpp"
#include "mmvram/harness/state_passing_inputs.hpp"
#include "mmvram/harness/verify.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>

namespace mmv::tool {

namespace {

using inputs::stream;

// The segment starts of a random input of n positions: --dist's distribution keyed by the seed
// (the kernels' flags for that seed; no stream draws), else the library's Bernoulli rule with
// p = --density on the run's stream (--dist geometric:M is the same rule, p = 1 / M, on the
// seed's flag stream).
std::vector<word> segment_starts(stream& d, std::int64_t n, const input_options& o) {
  return o.dist ? inputs::distribution_flags(*o.dist, n, o.seed) : inputs::bounded_flags(d, n, o.density);
}

// The most values of u a state-passing run takes: n H N V <= 2^24 (its cells are s times more).
constexpr std::int64_t max_lane_values = std::int64_t{1} << 24;

// The largest side of matrix-product: n^3 <= 2^40 multiply-adds.
constexpr std::int64_t max_matrix_side = 10321;

std::int64_t word_max_of(int bits) { return bits == 64 ? INT64_MAX : (std::int64_t{1} << (bits - 1)) - 1; }

// State passing's random input: inputs::random_state_passing of --n chunks of H x N x V lanes
// keyed by --seed at start rate --density (u about standard normal, log-decays in (-1, 0] with
// one in ten exactly 0); |u| without --signed, --dist's chunk starts when given. Rounded to
// float32 on float32 machines.
algorithm_input random_lanes(const input_options& o, number_format format) {
  const state_shape sh{o.heads, o.rows, o.cols, o.per_head};
  if (static_cast<__int128>(o.n) * sh.lanes() > max_lane_values)
    throw usage_error("state-passing: --n " + std::to_string(o.n) + " chunks of " + std::to_string(sh.heads) + " x " +
                      std::to_string(sh.rows) + " x " + std::to_string(sh.cols) +
                      " lanes exceed the limit n H N V <= 2^24");
  require_memory(static_cast<double>(o.n * sh.lanes()), "--n " + std::to_string(o.n) + " with " +
                                                            std::to_string(sh.lanes()) + " lanes");
  inputs::state_passing_problem p = inputs::random_state_passing(o.n, sh, o.density, o.seed);
  if (!o.signed_values)
    for (auto& u : p.local) u = std::fabs(u);
  algorithm_input in;
  in.n = o.n;
  in.lanes = sh;
  in.reals = held(std::move(p.local), format);
  in.log_decays = held(std::move(p.log_decay), format);
  in.flags = o.dist ? inputs::distribution_flags(*o.dist, o.n, o.seed)
                     : std::vector<word>(p.starts.begin(), p.starts.end());
  return in;
}

// A random CSR matrix with n nonzeros: each nonzero starts a new row where segment_starts()
// sets a flag (the first always does), the matrix is square, columns are uniform.
csr_matrix random_matrix(stream& d, std::int64_t n, const input_options& o, const std::vector<real>& values) {
  const auto f = segment_starts(d, n, o);
  csr_matrix a;
  for (std::int64_t i = 0; i < n; ++i)
    if (f[i] || i == 0) a.row_ptr.push_back(i);  // the first row starts at 0 (no_flags, first_flag_0)
  a.row_ptr.push_back(n);
  a.rows = static_cast<std::int64_t>(a.row_ptr.size()) - 1;
  a.cols = a.rows;
  a.col_idx.resize(static_cast<std::size_t>(n));
  for (auto& c : a.col_idx) c = d.integer(0, a.cols - 1);
  a.values = values;
  return a;
}

void require_length(std::size_t got, std::size_t want, const std::string& what) {
  if (got != want)
    throw usage_error(what + " has " + std::to_string(got) + " values but " + std::to_string(want) + " are needed");
}

std::vector<word> checked_flags(const std::string& path, std::size_t n) {
  auto f = read_words(path, "flags");
  require_length(f.size(), n, "flags file '" + path + "'");
  for (std::size_t i = 0; i < f.size(); ++i)
    if (f[i] != 0 && f[i] != 1)
      throw usage_error("flags file '" + path + "': value " + std::to_string(f[i]) + " at index " +
                        std::to_string(i) + " is not 0 or 1");
  return f;
}

void require_file(const std::string& path, const std::string& option, const algorithm_entry& e) {
  if (path.empty()) throw usage_error(e.name + " reads " + option + " FILE together with the other input files");
}

void require_integer_values(const csr_matrix& a, const std::string& what) {
  for (std::size_t k = 0; k < a.values.size(); ++k)
    if (a.values[k] != std::trunc(a.values[k]))
      throw usage_error(what + ": entry " + std::to_string(k) + " is not an integer (use --mode float32 or float64)");
}

// The contract of the decayed scans (decayed_scan.hpp): every decay a is finite with 0 < a <= 1.
void require_valid_decays(const std::vector<real>& a, const std::string& what) {
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!(std::isfinite(a[i]) && a[i] > 0 && a[i] <= 1)) {
      char text[32];
      std::snprintf(text, sizeof text, "%.17g", a[i]);
      throw usage_error(what + ": decay " + text + " at index " + std::to_string(i) + " is not in (0, 1]");
    }
}

// An upper bound on the nonzeros of --bigbird B,R[,W,G] with side n: G global block rows are
// full, every other block row holds at most W + G + R blocks.
double bigbird_nonzeros(const std::vector<std::int64_t>& b, std::int64_t n) {
  const double blocks = static_cast<double>(n / b[0]), side = static_cast<double>(b[0]);
  const double w = b.size() > 2 ? static_cast<double>(b[2]) : 1, g = b.size() > 3 ? static_cast<double>(b[3]) : 2;
  const double per_row = std::min(blocks, w + std::min(g, blocks) + static_cast<double>(b[1]));
  return side * side * (std::min(g, blocks) * blocks + std::max(0.0, blocks - g) * per_row);
}

// Reals read from a file as a machine of `format` holds them (held(): float32 machines round
// them to float32), after checking that each lies in the float32 range there (else usage_error
// naming `what` and the index). Float64 runs keep them as read.
std::vector<real> held_in_range(std::vector<real> x, number_format format, const std::string& what) {
  if (format == number_format::float32)
    for (std::size_t i = 0; i < x.size(); ++i)
      if (!std::isfinite(static_cast<float>(x[i])))
        throw usage_error(what + ": value " + format_value(x[i], number_format::float64) + " at index " +
                          std::to_string(i) + " is outside the float32 range (|x| <= 3.4028235e+38)");
  return held(std::move(x), format);
}

// Refuses an option of random inputs that this run would silently ignore: every one of them
// with file inputs (except what draws SpMV's vector when --vector is absent), --density for
// inputs without segments or with --bigbird, and --max-value on float machines.
void require_no_ignored_options(const algorithm_entry& e, const input_options& o, number_format format) {
  const shape_facts& sh = facts_of(e.shape);
  const bool random_vector = sh.matrix && !o.matrix_file.empty() && o.vector_file.empty();
  for (const auto& option : o.random_options) {
    const bool draws = option == "--seed" || option == "--max-value" || option == "--signed";
    const bool density = option == "--density" || option == "--mean-length" || option == "--dist";
    if (o.from_files() && !(draws && random_vector))
      throw usage_error(option + " shapes random inputs; it does not apply to input files" +
                        (draws && sh.matrix ? " (it draws spmv's vector without --vector)" : ""));
    if (density && !sh.random_segments)
      throw usage_error(option + " sets segment starts, but " + e.name + " has no segments (its input: " +
                        to_string(e.shape) + ")");
    if (density && !o.bigbird.empty())
      throw usage_error(option + " does not apply to --bigbird, whose block pattern fixes the rows");
    const bool lane = option == "--heads" || option == "--rows" || option == "--cols" || option == "--decay";
    if (lane && !sh.lanes)
      throw usage_error(option + " shapes the lanes of state-passing; " + e.name + " has none (its input: " +
                        to_string(e.shape) + ")");
    if (option == "--max-value" && format != number_format::integer)
      throw usage_error("--max-value bounds random integers; float runs draw reals in [0, 1) ([-1, 1) with --signed)");
  }
}

// Refuses an input file the algorithm does not read (it would be silently ignored otherwise).
void require_no_foreign_files(const algorithm_entry& e, const input_options& o) {
  const shape_facts& sh = facts_of(e.shape);
  const std::pair<const std::string*, std::pair<const char*, bool>> files[] = {
      {&o.values_file, {"--values", !sh.matrix}},    {&o.flags_file, {"--flags", sh.flags}},
      {&o.decays_file, {"--decays", sh.decays}},     {&o.values2_file, {"--values2", sh.second}},
      {&o.matrix_file, {"--matrix", sh.matrix}},     {&o.vector_file, {"--vector", sh.matrix}}};
  for (const auto& [path, use] : files)
    if (!path->empty() && !use.second)
      throw usage_error(e.name + " does not read " + use.first + " (its input: " + sh.inputs + ")");
}

algorithm_input input_from_files(const algorithm_entry& e, const input_options& o, number_format format, int bits) {
  const bool integer = format == number_format::integer;
  algorithm_input in;
  if (facts_of(e.shape).matrix) {
    require_file(o.matrix_file, "--matrix", e);
    in.matrix = read_matrix_file(o.matrix_file, integer ? bits : 1);
    if (integer) require_integer_values(in.matrix, "matrix file '" + o.matrix_file + "'");
    const auto cols = static_cast<std::size_t>(in.matrix.cols);
    if (!o.vector_file.empty() && integer) in.words = read_words(o.vector_file, "vector");
    if (!o.vector_file.empty() && !integer)
      in.reals = held_in_range(read_reals(o.vector_file, "vector"), format, "vector file '" + o.vector_file + "'");
    if (!integer)
      in.matrix.values = held_in_range(in.matrix.values, format, "matrix file '" + o.matrix_file + "'");
    if (o.vector_file.empty()) {
      stream d(o.seed);
      if (integer) in.words = inputs::bounded_words(d, in.matrix.cols, o.max_value.value_or(1), o.signed_values);
      else in.reals = inputs::bounded_reals(d, in.matrix.cols, o.signed_values, format == number_format::float32);
    }
    require_length(integer ? in.words.size() : in.reals.size(), cols, "the matrix's column count");
    in.n = in.matrix.nonzeros();
    return in;
  }
  require_file(o.values_file, "--values", e);
  if (integer) in.words = read_words(o.values_file, "values");
  else in.reals = held_in_range(read_reals(o.values_file, "values"), format, "values file '" + o.values_file + "'");
  const std::size_t n = integer ? in.words.size() : in.reals.size();
  if (facts_of(e.shape).flags) {
    require_file(o.flags_file, "--flags", e);
    in.flags = checked_flags(o.flags_file, n);
  }
  if (facts_of(e.shape).decays) {
    require_file(o.decays_file, "--decays", e);
    in.decays = held_in_range(read_reals(o.decays_file, "decays"), format, "decays file '" + o.decays_file + "'");
    require_length(in.decays.size(), n, "decays file '" + o.decays_file + "'");
    require_valid_decays(in.decays, "decays file '" + o.decays_file + "'");
  }
  if (facts_of(e.shape).second) {
    require_file(o.values2_file, "--values2", e);
    in.words2 = read_words(o.values2_file, "values2");
    require_length(in.words2.size(), n, "values2 file '" + o.values2_file + "'");
  }
  if (facts_of(e.shape).square) {
    const auto side = static_cast<std::size_t>(std::llround(std::sqrt(static_cast<double>(n))));
    if (side * side != n) throw usage_error("matrix product values must hold side*side entries (got " + std::to_string(n) + ")");
    in.n = static_cast<std::int64_t>(side);
    if (in.n > max_matrix_side)
      throw usage_error(e.name + ": matrices of side " + std::to_string(in.n) + " are too large (the limit is n^3 <= 2^40, i.e. n <= " +
                        std::to_string(max_matrix_side) + ")");
  } else {
    in.n = static_cast<std::int64_t>(n);
  }
  require_memory(run_elements(e.shape, static_cast<double>(in.n), integer, bits),
                 "the input files (n = " + std::to_string(in.n) + ")");
  return in;
}

// A BigBird sparse-attention matrix of side n (--bigbird BLOCK,RANDOM[,WINDOW,GLOBAL]); on
// integer machines its values become integers in [-m, m].
csr_matrix bigbird(const input_options& o, std::int64_t n, bool integer, int bits) {
  const auto& b = o.bigbird;
  if (n % b[0] != 0) throw usage_error("--bigbird: --n " + std::to_string(n) + " is not a multiple of the block " + std::to_string(b[0]));
  const std::int64_t blocks = n / b[0];
  const char* names[] = {"BLOCK", "RANDOM", "WINDOW", "GLOBAL"};
  for (std::size_t k = 1; k < b.size(); ++k)
    if (b[k] > blocks || b[k] > INT32_MAX)
      throw usage_error(std::string("--bigbird: ") + names[k] + " = " + std::to_string(b[k]) + " exceeds the " +
                        std::to_string(blocks) + " block(s) of side " + std::to_string(b[0]) + " in --n " +
                        std::to_string(n));
  require_memory(run_elements(input_shape::sparse_matrix, bigbird_nonzeros(b, n), integer, bits),
                 "--bigbird with --n " + std::to_string(n));
  csr_matrix a = bigbird_matrix(n, b[0], static_cast<int>(b[1]), static_cast<int>(b.size() > 2 ? b[2] : 1),
                                static_cast<int>(b.size() > 3 ? b[3] : 2), o.seed);
  const std::int64_t m = o.max_value.value_or(default_max_value(input_shape::sparse_matrix, a.nonzeros(), bits));
  if (integer)
    for (auto& v : a.values) v = std::round(v * static_cast<double>(m));
  return a;
}

}  // namespace

std::int64_t default_max_value(input_shape shape, std::int64_t n, int bits) {
  const std::int64_t top = word_max_of(bits);
  const shape_facts& f = facts_of(shape);
  if (f.square)
    return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::sqrt(static_cast<double>(top) / std::pow(double(n), 3))));
  if (f.second) return static_cast<std::int64_t>(std::sqrt(static_cast<double>(top)));
  if (f.matrix)
    return std::clamp<std::int64_t>(static_cast<std::int64_t>(std::sqrt(static_cast<double>(top / std::max<std::int64_t>(n, 1)))), 1, 100);
  return std::clamp<std::int64_t>(top / std::max<std::int64_t>(n, 1), 1, 100);
}

algorithm_input make_input(const algorithm_entry& e, const input_options& o, number_format format, int bits) {
  const bool integer = format == number_format::integer;
  if (integer && !e.integer_ok) throw usage_error(e.name + " runs in float mode only (--mode float32 or float64)");
  if (!integer && !e.float_ok) throw usage_error(e.name + " runs in integer mode only (--mode integer)");
  const shape_facts& sh = facts_of(e.shape);
  if (!o.bigbird.empty() && (!sh.matrix || o.from_files()))
    throw usage_error("--bigbird generates the matrix of spmv; it does not combine with " +
                      (o.from_files() ? std::string("input files") : e.name));
  require_no_foreign_files(e, o);
  require_no_ignored_options(e, o, format);
  if (sh.lanes && o.from_files()) throw usage_error(e.name + " takes random inputs only (no input files)");
  if (o.from_files()) return input_from_files(e, o, format, bits);

  stream d(o.seed);
  const std::int64_t n = o.n;
  if (sh.square && static_cast<__int128>(n) * n * n > (__int128{1} << 40))
    throw usage_error(e.name + ": --n " + std::to_string(n) + " is too large (the limit is n^3 <= 2^40, i.e. n <= " +
                      std::to_string(max_matrix_side) + ")");
  if (o.bigbird.empty())
    require_memory(run_elements(e.shape, static_cast<double>(n), integer, bits), "--n " + std::to_string(n));
  const std::int64_t side = sh.square ? n * n : n;
  const std::int64_t m = o.max_value.value_or(default_max_value(e.shape, n, bits));
  algorithm_input in;
  in.n = n;
  if (sh.matrix) {
    if (o.bigbird.empty()) {
      std::vector<real> values;
      if (integer)
        for (auto w : inputs::bounded_words(d, n, m, o.signed_values)) values.push_back(static_cast<real>(w));
      else
        values = inputs::bounded_reals(d, n, o.signed_values, format == number_format::float32);
      in.matrix = random_matrix(d, n, o, values);
    } else {
      // --bigbird makes its own values: the n values of a random matrix are skipped, not drawn
      // (one draw each), so the vector below is the one drawn before, and nothing of size n is
      // allocated before bigbird() checks the matrix's size.
      d.skip(static_cast<std::uint64_t>(n));
      in.matrix = bigbird(o, n, integer, bits);
    }
    in.n = in.matrix.nonzeros();
    const std::int64_t mv = o.max_value.value_or(default_max_value(e.shape, in.n, bits));
    if (integer) in.words = inputs::bounded_words(d, in.matrix.cols, mv, o.signed_values);
    else in.reals = inputs::bounded_reals(d, in.matrix.cols, o.signed_values, format == number_format::float32);
    return in;
  }
  if (sh.lanes) return random_lanes(o, format);
  if (integer) in.words = inputs::bounded_words(d, side, m, o.signed_values);
  else in.reals = inputs::bounded_reals(d, side, o.signed_values, format == number_format::float32);
  if (sh.flags) in.flags = segment_starts(d, n, o);
  if (sh.decays) {
    in.decays.resize(static_cast<std::size_t>(n));
    for (auto& a : in.decays) a = 0.5 + 0.5 * d.unit();
    in.decays = held(std::move(in.decays), format);
    require_valid_decays(in.decays, "random decays");
  }
  if (sh.second)
    in.words2 = inputs::bounded_words(d, side, m, o.signed_values);
  return in;
}

}  // namespace mmv::tool
