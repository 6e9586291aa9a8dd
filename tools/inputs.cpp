// Building the input of one run from the command line's options: random inputs are the input
// library's (mmvram/harness/run_inputs.hpp), after the options and sizes are checked here (an
// option the run would ignore, the limits, the host's memory); file inputs are read and checked
// for length, 0/1 flags and valid decays.
#include "inputs.hpp"

#include "memory.hpp"

#include "mmvram/harness/random_inputs.hpp"
#include "mmvram/harness/run_inputs.hpp"
#include "mmvram/harness/verify.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>

namespace mmv::tool {

namespace {

using inputs::stream;

// The most values of u a state-passing run takes: n H N V <= 2^24 (its cells are s times more).
constexpr std::int64_t max_lane_values = std::int64_t{1} << 24;

// The largest side of matrix-product: n^3 <= 2^40 multiply-adds.
constexpr std::int64_t max_matrix_side = 10321;

// Refuses a state-passing run of --n chunks of H x N x V lanes beyond n H N V <= 2^24 values of
// u or beyond the host's memory.
void require_lanes_fit(const input_options& o) {
  const state_shape sh{o.heads, o.rows, o.cols, o.per_head};
  if (static_cast<__int128>(o.n) * sh.lanes() > max_lane_values)
    throw usage_error("state-passing: --n " + std::to_string(o.n) + " chunks of " + std::to_string(sh.heads) + " x " +
                      std::to_string(sh.rows) + " x " + std::to_string(sh.cols) +
                      " lanes exceed the limit n H N V <= 2^24");
  require_memory(static_cast<double>(o.n * sh.lanes()), "--n " + std::to_string(o.n) + " with " +
                                                            std::to_string(sh.lanes()) + " lanes");
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

// Refuses --bigbird B,R[,W,G] with side n where n is not a multiple of B, a block count exceeds
// the n / B blocks (or 2^31 - 1), or the matrix exceeds the host's memory.
void require_bigbird_fits(const input_options& o, std::int64_t n, bool integer, int bits) {
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
}

}  // namespace

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

  const std::int64_t n = o.n;
  if (sh.square && static_cast<__int128>(n) * n * n > (__int128{1} << 40))
    throw usage_error(e.name + ": --n " + std::to_string(n) + " is too large (the limit is n^3 <= 2^40, i.e. n <= " +
                      std::to_string(max_matrix_side) + ")");
  if (o.bigbird.empty())
    require_memory(run_elements(e.shape, static_cast<double>(n), integer, bits), "--n " + std::to_string(n));
  else
    require_bigbird_fits(o, n, integer, bits);
  if (sh.lanes) require_lanes_fit(o);
  inputs::run_draw d;
  d.n = n, d.density = o.density, d.dist = o.dist, d.seed = o.seed, d.max_value = o.max_value;
  d.signed_values = o.signed_values, d.bigbird = o.bigbird, d.lanes = state_shape{o.heads, o.rows, o.cols, o.per_head};
  return inputs::random_run_input(e.shape, d, format, bits);
}

}  // namespace mmv::tool
