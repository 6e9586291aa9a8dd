// `mmvram instructions`: the machine's instruction table. The cost columns are computed by the
// functions of cost.hpp (the single definition of every price) for an output of m elements on
// a machine with tile size s; the names are the ops the ledger records.
#include "commands.hpp"

#include "mmvram/model/cost.hpp"

#include <algorithm>
#include <iomanip>
#include <iostream>

namespace mmv::tool {

namespace {

struct instruction_row {
  const char* ops;
  unit where;
  const char* circuit;
  cost price;
  const char* formula;
};

std::vector<instruction_row> rows(std::int64_t m, std::int64_t s) {
  const std::int64_t rows_of_s = (m + s - 1) / s;
  std::int64_t k = 2;  // the iterated-addition block the scans use on m elements: max(2, ceil(log2 m))
  while ((std::int64_t{1} << k) < m) ++k;
  return {
      {"load", unit::scalar, "host transfer (free)", cost_of_scalar(m, m), "0 steps; m words in, m out"},
      {"add sub", unit::vcu, "AC0: B-bit adder", cost_of_vcu(m, 2 * m), "1 step, work m"},
      {"add-const sub-const neg", unit::vcu, "AC0: B-bit adder", cost_of_vcu(m, m), "1 step, work m"},
      {"min max", unit::vcu, "AC0: comparator + mux", cost_of_vcu(m, 2 * m), "1 step, work m"},
      {"eq ne lt le gt ge", unit::vcu, "AC0: comparator", cost_of_vcu(m, 2 * m), "1 step, work m"},
      {"select", unit::vcu, "AC0: multiplexer", cost_of_vcu(m, 3 * m), "1 step, work m"},
      {"select-const", unit::vcu, "AC0: multiplexer", cost_of_vcu(m, 2 * m), "1 step, work m"},
      {"and or xor", unit::vcu, "AC0: one gate per bit", cost_of_vcu(m, 2 * m), "1 step, work m"},
      {"not", unit::vcu, "AC0: one gate per flag", cost_of_vcu(m, m), "1 step, work m"},
      {"shl shr", unit::vcu, "wiring (constant shift)", cost_of_vcu(m, m), "1 step, work m"},
      {"extract-bit", unit::vcu, "AC0: B-way multiplexer", cost_of_vcu(m, 2 * m), "1 step, work m"},
      {"shift", unit::vcu, "wiring (vector shift, DIFF)", cost_of_vcu(m, m), "1 step, work m"},
      {"broadcast iota lane-index", unit::vcu, "constants (depth 0)", cost_of_vcu(m, 0), "1 step, work m"},
      {"gather", unit::vcu, "AC0: addressed read", cost_of_vcu(m, 2 * m), "1 step, work m"},
      {"gather-strided", unit::vcu, "AC0: addressed read", cost_of_vcu(m, m), "1 step, work m"},
      {"scatter", unit::vcu, "AC0: addressed write (EREW)", cost_of_vcu(m, m + 2 * m), "1 step, work = dst length"},
      {"compress", unit::vcu, "AC0: addressed write, given ranks", cost_of_vcu(m, 3 * m), "1 step, work = kept"},
      {"resize", unit::vcu, "wiring", cost_of_vcu(m, m), "1 step, work m"},
      {"revspec", unit::vcu, "AC0: s-way priority select + adder", cost_of_revspec(m, s), "1 step, work m*s"},
      {"block-prefix", unit::vcu, "AC0 if k <= polylog n (optional)", cost_of_iterated_addition(m, k, m),
       "1 step, work m*k, k = ceil(log2 m) shown"},
      {"block-seg-prefix", unit::vcu, "AC0 if k <= polylog n (optional)", cost_of_iterated_addition(m, k, 2 * m),
       "1 step, work m*k, k = ceil(log2 m) shown"},
      {"mul mul-const div", unit::vcu, "IEEE unit (float modes only)", cost_of_vcu(m, 2 * m), "1 step, work m"},
      {"exp log to-real", unit::vcu, "IEEE unit (float modes only)", cost_of_vcu(m, m), "1 step, work m"},
      {"mmu", unit::mmu, "matrix unit: (m/s x s)(s x s)", cost_of_mmu(rows_of_s, s),
       "1 step, ceil(m/s^2) tiles, m*s mult-adds"},
  };
}

}  // namespace

int print_instructions(const instructions_options& o) {
  // Count columns wide enough for the largest count (m * s <= 2^52 has 16 digits) plus a gap.
  const int w = std::max(10, static_cast<int>(std::to_string(o.m * o.s).size()) + 2);
  std::cout << "MMV-RAM instructions (costs from cost.hpp for an output of m = " << o.m << " elements, s = " << o.s
            << ")\n\n"
            << std::left << std::setw(26) << "op" << std::setw(8) << "unit" << std::setw(37) << "circuit class"
            << std::right << std::setw(6) << "steps" << std::setw(w) << "work" << std::setw(w) << "tiles"
            << std::setw(w) << "read" << std::setw(w) << "written" << "  cost rule\n";
  for (const auto& r : rows(o.m, o.s))
    std::cout << std::left << std::setw(26) << r.ops << std::setw(8) << to_string(r.where) << std::setw(37) << r.circuit
              << std::right << std::setw(6) << r.price.steps << std::setw(w) << r.price.work << std::setw(w)
              << r.price.tile_products << std::setw(w) << r.price.words_read << std::setw(w) << r.price.words_written
              << "  " << r.formula << "\n";
  std::cout << "\nThe VCU never scans, reduces or multiplies two integer words in one step; the MMU is the only\n"
               "unit that sums s terms at once, except for the optional iterated additions (off unless a machine\n"
               "allows them), which sum k <= polylog(n) words. See docs/model.md for the definitions.\n";
  return 0;
}

}  // namespace mmv::tool
