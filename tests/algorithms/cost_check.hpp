// The algorithm tests' cost check: a run's ledger asserted equal to its predicted_cost field by
// field; and the rows of the cost tables (docs/algorithms/cost_table.md) printed beside it.
#pragma once
#include <iostream>
#include <string>

#include "catch.hpp"
#include "mmvram/algorithms/common.hpp"
#include "mmvram/model/machine.hpp"

namespace mmv::test {

// Asserts that m's ledger equals p: MMU and VCU steps, depth, tile products, multiply-adds and
// VCU work.
inline void check_ledger_equals(const mmv::machine& m, const mmv::cost_prediction& p) {
  const auto& t = m.costs().totals();
  CHECK(t.mmu.steps == p.mmu_steps);
  CHECK(t.vcu.steps == p.vcu_steps);
  CHECK(m.costs().depth() == p.depth);
  CHECK(t.mmu.tile_products == p.tile_products);
  CHECK(t.mmu.multiply_adds == p.multiply_adds);
  CHECK(t.vcu.work == p.vcu_work);
}

// Prints the table's header; `size_column` names the size column ("log2 n", "size").
inline void print_cost_table_header(const std::string& size_column) {
  std::cout << "| algorithm | s | " << size_column
            << " | steps (MMU+VCU) | predicted | depth | predicted | MMU tiles | MMU MACs | VCU work | predicted work |\n"
               "|---|---|---|---|---|---|---|---|---|---|---|\n";
}

// check_ledger_equals(m, p), then prints the row; `s` and `size` are the row's labels.
inline void check_cost_row(const std::string& name, const std::string& s, const std::string& size,
                           const mmv::machine& m, const mmv::cost_prediction& p) {
  CAPTURE(name, s, size, p.formula);
  check_ledger_equals(m, p);
  const auto& t = m.costs().totals();
  std::cout << "| " << name << " | " << s << " | " << size << " | " << t.mmu.steps + t.vcu.steps << " (" << t.mmu.steps
            << "+" << t.vcu.steps << ") | " << p.steps() << " | " << m.costs().depth() << " | " << p.depth << " | "
            << t.mmu.tile_products << " | " << t.mmu.multiply_adds << " | " << t.vcu.work << " | " << p.vcu_work << " |\n";
}

}  // namespace mmv::test
