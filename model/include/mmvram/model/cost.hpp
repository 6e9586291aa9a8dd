// What one instruction costs (a record of the ledger, or a sum of records). The prices
// themselves are stated once, in instruction_table.hpp. Costs compose like NESL/Cilkscale: a
// sequence adds steps and work; the depth of the DAG (ledger/dag) is where independent
// instructions overlap.
#pragma once
#include <cstdint>

namespace mmv {

// Counters of one instruction or of a sum of instructions. `work` counts element operations:
// one per output element for most VCU instructions, s per element for REVSPEC, k for the
// iterated additions, and one per multiply-add for the MMU (which also counts s x s tile products).
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

}  // namespace mmv
