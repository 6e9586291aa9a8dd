// The smallest word width B an integer run needs, computed from its input: every value the
// algorithm forms (inputs, constants, iota results, indices and addresses, speculative and
// partial sums) must fit B-bit two's complement. docs/tool.md (min_word_bits) lists the terms.
#pragma once
#include "mmvram/harness/registry.hpp"

namespace mmv {

// The range of values a run forms, in 128 bits (sums may exceed 64).
struct value_span {
  __int128 lo = 0, hi = 0;
  // Widens the span to hold v.
  void add(__int128 v);
};

// The smallest B in 2..64 whose words hold every value of `span`; 65 when none does.
int bits_for(const value_span& span);

// The minimum word width of one integer run (65: no B <= 64 runs it). `exact`: a run at
// bits - 1 raises width_error; otherwise `bits` is an upper bound (the data term bounds
// signed partial sums by the input's largest range sums) and a run at `bits` still fits.
struct word_bits_need {
  int bits = 2;
  bool exact = true;
};

// The need of the algorithm named `algorithm` (a registry name) on `in` with tile size s;
// throws model_error for an algorithm without integer mode.
word_bits_need min_word_bits(const std::string& algorithm, const algorithm_input& in, int s);

}  // namespace mmv
