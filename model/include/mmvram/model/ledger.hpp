// The cost ledger: every instruction the machine retires, per unit and per tagged region
// (like Cilkscale's snapshots), plus the program depth. Only the machine writes to it.
#pragma once
#include "mmvram/model/cost.hpp"
#include "mmvram/model/instruction_table.hpp"
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
  double measured_ns = -1;  // device time of the instruction (timing backends; -1: not measured)
  std::vector<std::int64_t> inputs;  // ledger positions of the records that wrote its operands
  operand_sizes sizes;               // what `price` was computed from (price == price_of(op, sizes))
  // Host wall time of the backend's call that executed it (on the simulate backend the
  // execution itself; on cuda the allocation of the result, the launches and any library
  // planning or synchronisation before the call returns). The front's checks before it and
  // the retiring of the record after it are not included.
  double host_ns = -1;
  // The result holds reals: a timing backend's executors check it for inf/nan after it (the
  // cuda backend's find_nonfinite, one more read of it), which the time model prices.
  bool real_output = false;
};

// Costs split by unit. The scalar unit is free (no steps, no work): `scalar` holds only the
// words its loads move (kept out of total(), which sums the MMU and the VCU), and
// `scalar_ops` counts its entries.
struct unit_costs {
  cost mmu;
  cost vcu;
  cost scalar;
  std::int64_t scalar_ops = 0;
  double measured_ns = 0;  // sum of the measured device times (timing backends only)
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
  // True when every MMU/VCU record carries a measured device time.
  bool measured() const { return measured_; }
  // Device time from the first measured instruction's start to the last one's end (launch gaps
  // and host synchronisations included), summed over collections; 0 when nothing was measured.
  double span_ns() const { return span_ns_; }

 private:
  friend class machine;
  void retire(instruction_record r);
  // Sets the device times of the records from `first` on, in order, adds them to the totals and
  // `span_ns` (their back-to-back span) to span_ns().
  void set_measured(std::size_t first, const std::vector<double>& ns, double span_ns);
  // Sets the host issue time of the last retired record.
  void set_host_time(double ns) { records_.back().host_ns = ns; }

  unit_costs totals_;
  std::int64_t depth_ = 0;
  std::map<std::string, unit_costs> by_region_;
  std::vector<instruction_record> records_;
  bool measured_ = false;
  double span_ns_ = 0;
};

}  // namespace mmv
