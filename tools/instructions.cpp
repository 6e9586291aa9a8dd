// `mmvram instructions`: the machine's instruction table, printed from the one table the ledger
// charges from (instruction_table.hpp): the cost columns are its prices for an output of m
// elements on a machine with tile size s; the names are the ops the ledger records.
#include "commands.hpp"

#include "mmvram/model/instruction_table.hpp"

#include <algorithm>
#include <iomanip>
#include <iostream>

namespace mmv::tool {

namespace {

// The operand sizes of the example row: an output of m elements, operands of m (the MMU's
// weight s*s), the iterated additions' block k = ceil(log2 m).
operand_sizes example_sizes(const instruction_info& r, std::int64_t m, std::int64_t s) {
  std::int64_t k = 2;
  while ((std::int64_t{1} << k) < m) ++k;
  if (r.code == op_code::mmu) return operand_sizes{m, m, s * s, s, 0};
  return operand_sizes{m, m, m, s, k};
}

}  // namespace

int print_instructions(const instructions_options& o) {
  // Count columns wide enough for the largest count (m * s <= 2^52 has 16 digits) plus a gap.
  const int w = std::max(10, static_cast<int>(std::to_string(o.m * o.s).size()) + 2);
  std::cout << "MMV-RAM instructions (costs from the instruction table for an output of m = " << o.m << " elements, s = " << o.s
            << ")\n\n"
            << std::left << std::setw(26) << "op" << std::setw(8) << "unit" << std::setw(37) << "circuit class"
            << std::right << std::setw(6) << "steps" << std::setw(w) << "work" << std::setw(w) << "tiles"
            << std::setw(w) << "read" << std::setw(w) << "written" << "  cost rule\n";
  for (const auto& r : instruction_table()) {
    const cost price = r.price(example_sizes(r, o.m, o.s));
    std::cout << std::left << std::setw(26) << r.name << std::setw(8) << to_string(r.where) << std::setw(37) << r.circuit
              << std::right << std::setw(6) << price.steps << std::setw(w) << price.work << std::setw(w)
              << price.tile_products << std::setw(w) << price.words_read << std::setw(w) << price.words_written << "  "
              << r.rule << "\n";
  }
  std::cout << "\nOptional rows (block-prefix, block-seg-prefix) are off unless the machine enables iterated\n"
               "addition; k = ceil(log2 m) above. Float-only rows exist on float32/float64 machines.\n"
               "The VCU never scans, reduces or multiplies two integer words in one step; the MMU is the only\n"
               "unit that sums s terms at once, except for the optional iterated additions, which sum\n"
               "k <= polylog(n) words. See docs/model.md for the definitions.\n";
  return 0;
}

}  // namespace mmv::tool
