// Strict re-pricing of a finished run (docs/model.md, "Model fidelity"): the instructions where
// our model is more generous than the paper's VCU of consecutive vector ports are charged what
// a plain network of one-step VCU instructions would take; everything else keeps its price. The
// ledger itself is untouched: this walks its records after the run.
#pragma once
#include "mmvram/model/ledger.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mmv {

// Steps and VCU work of a run under the strict rules. There is no strict depth: the strict model
// overlaps nothing, so its depth is `steps` (MMU + VCU, every instruction in sequence).
struct strict_costs {
  std::int64_t mmu_steps = 0;
  std::int64_t vcu_steps = 0;
  std::int64_t vcu_work = 0;
  std::map<std::string, std::int64_t> extra_steps;  // per re-priced op: strict steps - 1, summed
  std::int64_t steps() const { return mmu_steps + vcu_steps; }
};

// The strict price in steps of one instruction (op, output length, its cost as retired):
//   gather, scatter, compress   a bitonic sorting network on the p routed words, p = the output
//                               (gather), destination (scatter) or source (compress) length:
//                               c(c+1)/2 steps, c = ceil(log2 p) (1 step when p <= 1)
//   revspec                     ceil(log2 s) + 1 (find the block's last head by doubling, subtract)
//   block-prefix                2 ceil(log2 k) (Hillis-Steele: shift + add per round)
//   block-seg-prefix            5 ceil(log2 k) - 1 (Schwartz's rounds)
// s and k are read back from the work (m*s, m*k). Every other instruction: its own steps.
std::int64_t strict_steps_of(const instruction_record& r);

// Sums strict_steps_of over the records; VCU work = every re-priced step works on all p (or m)
// words; MMU and scalar records keep their prices.
strict_costs strict_pricing(const std::vector<instruction_record>& records);

}  // namespace mmv
