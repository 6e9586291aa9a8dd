// The smallest word width B an integer run needs, computed from its input: every value the
// algorithm forms (inputs, constants, iota results, indices and addresses, speculative and
// partial sums) must fit B-bit two's complement. docs/tool.md (min_word_bits) lists the terms.
// These are the rules the registry's entries hold (algorithm_entry::word_bits).
#pragma once
#include "mmvram/harness/input.hpp"

#include <cstdint>
#include <functional>

namespace mmv {

// The minimum word width of one integer run (65: no B <= 64 runs it). `exact`: a run at
// bits - 1 raises width_error; otherwise `bits` is an upper bound (the data term bounds
// signed partial sums by the input's largest range sums) and a run at `bits` still fits.
struct word_bits_need {
  int bits = 2;
  bool exact = true;
};

// The need of one algorithm on `in` with tile size s.
using word_bits_rule = std::function<word_bits_need(const algorithm_input& in, int s)>;

// A structure term: the largest index, address, count or constant a run on n values with tile
// size s forms besides its data.
using structure_term = __int128 (*)(std::int64_t n, int s);

// Scans of x: every range sum of x (exact when x is one-signed) and `structure` (none when null).
word_bits_rule scan_rule(structure_term structure = nullptr);
// Segmented scans of x with flags f: every range sum within a segment and `structure`.
word_bits_rule segmented_rule(structure_term structure);

// matmul_scan on n values: its down-sweep's slot-0 addresses reach n' - s, where n' = c s^(k-1)
// is n padded (n > s; 0 otherwise).
__int128 matmul_scan_addresses(std::int64_t n, int s);
// The iterated-addition trees on n values: their gathers address ceil(n/k) - 1 (n > k,
// k = iterated_addition_block(n); 0 otherwise); s does not enter.
__int128 iterated_addition_addresses(std::int64_t n, int s);

// SCD and SSCR: every range sum of x, the segment count (the flag scan) and both scans'
// addresses.
word_bits_need speculated_word_bits(const algorithm_input& in, int s);
// Block SSCR, level by level: in-block prefix and segmented sums, carries, carried sums, flags
// per block and block numbers. Exact.
word_bits_need block_sscr_word_bits(const algorithm_input& in, int s);
// elementwise_product: x, y, x y and the bit-copy structure at B (the smallest B that fits).
word_bits_need elementwise_product_word_bits(const algorithm_input& in, int s);
// matrix_product: X, Y, their n^3 products and SCD over them, the addresses up to n^2 - 1.
word_bits_need matrix_product_word_bits(const algorithm_input& in, int s);
// spmv_csr: a, v, the products and SCD over them, row pointers, columns and the row counts.
word_bits_need spmv_word_bits(const algorithm_input& in, int s);

}  // namespace mmv
