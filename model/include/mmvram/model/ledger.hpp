// The cost ledger: every instruction the machine retires, per unit and per tagged region
// (like Cilkscale's snapshots), plus the program depth. Only the machine writes to it.
#pragma once
#include "mmvram/model/cost.hpp"
#include "mmvram/model/types.hpp"

#include <map>
#include <string>
#include <vector>

namespace mmv {

// One retired instruction.
struct instruction_record {
  std::string op;
  unit where;
  std::string region;   // slash-separated tag path, e.g. "sscr/scan-x"
  std::int64_t length;  // output length m (rows x s for the MMU)
  cost price;
  std::int64_t depth;   // longest path (in steps) ending at this instruction
  std::string preview;  // first output values, when tracing
};

// Costs split by unit. The scalar unit is free (no steps, no work): `scalar` holds only the
// words its loads move (kept out of total(), which sums the MMU and the VCU), and
// `scalar_ops` counts its entries.
struct unit_costs {
  cost mmu;
  cost vcu;
  cost scalar;
  std::int64_t scalar_ops = 0;
  cost total() const { return mmu + vcu; }
};

class ledger {
 public:
  // Totals over every retired instruction, per unit.
  const unit_costs& totals() const { return totals_; }
  // Longest dependency chain in steps (MMU and VCU instructions may overlap).
  std::int64_t depth() const { return depth_; }
  // Totals per region path (exclusive: an instruction counts only in its innermost region).
  const std::map<std::string, unit_costs>& by_region() const { return by_region_; }
  // Every retired instruction in program order.
  const std::vector<instruction_record>& records() const { return records_; }

 private:
  friend class machine;
  void retire(instruction_record r);

  unit_costs totals_;
  std::int64_t depth_ = 0;
  std::map<std::string, unit_costs> by_region_;
  std::vector<instruction_record> records_;
};

}  // namespace mmv
