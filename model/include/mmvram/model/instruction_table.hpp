// The one instruction table: every instruction's name, unit, circuit class and cost, stated once.
// The machine's front charges the ledger from it, every backend executes the ops it names, and
// `mmvram instructions` and docs/instructions.md print it. Costs compose like NESL/Cilkscale.
#pragma once
#include "mmvram/model/cost.hpp"
#include "mmvram/model/op_code.hpp"
#include "mmvram/model/types.hpp"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace mmv {

// The operand sizes an instruction's cost depends on: its output length, its first and second
// operands' lengths (0 where absent), the machine's tile size s and an instruction's block k.
struct operand_sizes {
  std::int64_t out = 0;
  std::int64_t in0 = 0;
  std::int64_t in1 = 0;
  std::int64_t s = 2;
  std::int64_t k = 0;
};

// One row of the table.
struct instruction_info {
  op_code code;
  const char* name;     // the ledger's op name
  unit where;
  const char* circuit;  // circuit class (docs/model.md)
  const char* rule;     // the cost rule in words, as `mmvram instructions` prints it
  bool float_only;      // exists only on float32/float64 machines
  bool optional;        // off unless the machine enables it (iterated addition)
  cost (*price)(const operand_sizes&);
};

// Every row, in the order `mmvram instructions` prints them.
const std::vector<instruction_info>& instruction_table();
// The row of `code` (every op_code has exactly one).
const instruction_info& info_of(op_code code);
// The row whose ledger name is `name`, or nothing.
std::optional<op_code> find_instruction(std::string_view name);
// What one instruction of these operand sizes costs: the only price list the machine uses.
cost price_of(op_code code, const operand_sizes& sizes);
// The comparison op of a name "eq".."ge" (vector operand) or its "-const" form (scalar operand).
op_code comparison_op(std::string_view name, bool with_constant);

}  // namespace mmv
