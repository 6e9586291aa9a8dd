// Shared pieces of the algorithms: the predicted-cost record every algorithm states in a
// function, integer logarithms, and the constant s x s matrices the MMU multiplies by.
// Row convention: the MMU computes (row of s values) x W, so a prefix sum within each row is
// W[k][j] = [k <= j] (the paper's lower-triangular L_s, transposed for row vectors).
#pragma once
#include "mmvram/model/machine.hpp"

#include <cstdint>
#include <initializer_list>
#include <string>

namespace mmv {

// What an algorithm's closed form says it costs, field for field comparable with the ledger
// (machine::costs().totals()). `formula` is the human-readable form shown by the tool.
struct cost_prediction {
  std::int64_t mmu_steps = 0;
  std::int64_t vcu_steps = 0;
  std::int64_t depth = 0;          // longest path in steps (MMU and VCU may overlap)
  std::int64_t tile_products = 0;  // MMU s x s tile products
  std::int64_t multiply_adds = 0;  // MMU multiply-adds
  std::int64_t vcu_work = 0;       // VCU element operations
  // The elements of the longest vector one instruction writes (VCU work or MMU rows x s), where
  // the prediction is tallied instruction by instruction (cost_tally); 0 where it is a closed
  // form. The tool's memory estimate reads it (the s-fold cells of decayed scans, products).
  std::int64_t largest_vector = 0;
  std::string formula;
  std::int64_t steps() const { return mmu_steps + vcu_steps; }
};

// Smallest k >= 0 with base^k >= n (n >= 1, base >= 2).
std::int64_t ceil_log(std::int64_t n, std::int64_t base);
// Largest k >= 0 with base^k <= n (n >= 1, base >= 2).
std::int64_t floor_log(std::int64_t n, std::int64_t base);
// (n + d - 1) / d for n >= 0, d >= 1.
constexpr std::int64_t ceil_div(std::int64_t n, std::int64_t d) { return (n + d - 1) / d; }

// W[k][j] = [k <= j]: each row of the product is the inclusive prefix sum of the input row.
template <class T> vec<T> load_prefix_matrix(machine& m);
// W[k][j] = [k == j] + [k == 0 and j > 0]: adds the row's first element to every other one.
template <class T> vec<T> load_carry_matrix(machine& m);
// W[k][j] = [j == s-1]: column s-1 of each output row holds the row's total; others are 0.
template <class T> vec<T> load_row_total_matrix(machine& m);

namespace detail {

// The instruction table's price of one MMU product of `rows` rows of s (instruction_table.hpp).
cost mmu_price(std::int64_t rows, std::int64_t s);

// Adds up the instructions of an algorithm for its cost prediction, the way the ledger does:
// each call adds one step and returns the depth of its output (one more than its deepest input;
// loaded values are at depth 0).
struct cost_tally {
  int s;
  cost_prediction p;
  // A VCU instruction of `work` element operations writing `length` elements (-1: work).
  std::int64_t vcu(std::int64_t work, std::initializer_list<std::int64_t> inputs, std::int64_t length = -1);
  std::int64_t mmu(std::int64_t rows, std::initializer_list<std::int64_t> inputs);
  // Adds the steps and work of a sub-algorithm whose output is ready at `depth`.
  std::int64_t call(const cost_prediction& sub, std::int64_t depth);
};

}  // namespace detail

}  // namespace mmv
