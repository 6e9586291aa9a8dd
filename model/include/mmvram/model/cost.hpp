// What one instruction costs, and the single table that says so (cost_of_* below).
// Costs compose like NESL/Cilkscale: a sequence adds steps and work; the depth of the DAG
// (ledger/dag) is where independent instructions overlap.
#pragma once
#include <cstdint>

namespace mmv {

// Counters of one instruction or of a sum of instructions. `work` counts element operations:
// one per output element for most VCU instructions, s per element for REVSPEC, and one per
// multiply-add for the MMU (which also counts s x s tile products).
struct cost {
  std::int64_t steps = 0;
  std::int64_t work = 0;
  std::int64_t tile_products = 0;
  std::int64_t multiply_adds = 0;
  std::int64_t words_read = 0;
  std::int64_t words_written = 0;

  cost& operator+=(const cost& o) {
    steps += o.steps;
    work += o.work;
    tile_products += o.tile_products;
    multiply_adds += o.multiply_adds;
    words_read += o.words_read;
    words_written += o.words_written;
    return *this;
  }
  friend cost operator+(cost a, const cost& b) { return a += b; }
  friend bool operator==(const cost&, const cost&) = default;
};

// One VCU step producing m elements from `inputs_read` words read in total.
constexpr cost cost_of_vcu(std::int64_t m, std::int64_t inputs_read) {
  return cost{1, m, 0, 0, inputs_read, m};
}

// REVSPEC on m elements with block size s: an s-wide selection circuit per element.
constexpr cost cost_of_revspec(std::int64_t m, std::int64_t s) {
  return cost{1, m * s, 0, 0, 2 * m, m};
}

// Iterated addition of blocks of k words (optional AC[0] instruction): one step, work m*k.
constexpr cost cost_of_iterated_addition(std::int64_t m, std::int64_t k, std::int64_t inputs_read) {
  return cost{1, m * k, 0, 0, inputs_read, m};
}

// One MMU step: an (rows x s) matrix times an (s x s) matrix.
constexpr cost cost_of_mmu(std::int64_t rows, std::int64_t s) {
  const std::int64_t macs = rows * s * s;
  return cost{1, macs, (rows + s - 1) / s, macs, rows * s + s * s, rows * s};
}

// The scalar unit: free, but its memory transfers (loads of inputs and constants) are counted.
constexpr cost cost_of_scalar(std::int64_t words_read, std::int64_t words_written) {
  return cost{0, 0, 0, 0, words_read, words_written};
}

}  // namespace mmv
