// The verifier of the harness: compares a run's result with its sequential reference
// (reference.hpp), exactly for integers and within a stated rounding bound for floats (the
// simulator's rule of tolerance.hpp), and
// formats values at round-trip precision.
#pragma once
#include "mmvram/harness/tolerance.hpp"
#include "mmvram/model/types.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace mmv {

// The result of one run, already compared with the reference.
struct algorithm_outcome {
  bool verified = false;
  double max_abs_error = 0;  // 0 for exact integer matches
  double tolerance = 0;      // allowed |out - ref| in float modes (0: exact)
  std::string mismatch;      // first differing position, when not verified
  std::int64_t output_length = 0;
  std::vector<std::string> output_preview;  // first 16 output values, at round-trip precision
  std::vector<word> output_words;           // the whole result of an integer run
  std::vector<real> output_reals;           // the whole result of a float run
  double simulate_seconds = 0;              // loading, running and reading back only
};

// A value as the shortest text that reads back to it exactly: integers in decimal, reals as
// float32 in float32 mode (the machine holds nothing finer) and as double otherwise.
std::string format_value(word v, number_format format);
std::string format_value(real v, number_format format);

// The sum of |x| (the magnitude a scan of x runs through).
double abs_sum(const std::vector<real>& x);

// The values as a machine of format `f` holds them: reals rounded to float32 in float32 mode,
// words as they are.
std::vector<real> held(std::vector<real> x, number_format f);
const std::vector<word>& held(const std::vector<word>& x, number_format f);

// The harness's one comparison of a result with its reference: "" when got equals want (words
// exactly; reals within `tol`, NaN never), else the first difference as "index i: got X, expected
// Y" (reals add "|error| E > tolerance T") or the two lengths, values formatted for format f.
template <class T>
std::string first_mismatch(const std::vector<T>& got, const std::vector<T>& want, double tol, number_format f);

// Compares `got` with `want` by first_mismatch, records the largest |error| (reals), keeps the
// whole result and the run's simulator time `seconds`.
template <class T>
algorithm_outcome checked(std::vector<T> got, const std::vector<T>& want, double tol, double seconds,
                          number_format f);

}  // namespace mmv
