// The instructions of the machine, one code each (instruction_table.hpp gives their names and
// costs). Plain C++ with no dependency, so that device code (gpu/backend/) can include it.
#pragma once

namespace mmv {

// Every instruction the machine retires (one ledger op name each).
enum class op_code {
  load,
  add, add_const, sub, sub_const, neg, min, max,
  eq, ne, lt, le, gt, ge,
  eq_const, ne_const, lt_const, le_const, gt_const, ge_const,
  select, select_const,
  logic_and, logic_or, logic_xor, logic_not,
  shift_left_bits, shift_right_bits, extract_bit,
  shift, broadcast, iota, lane_index,
  gather, gather_strided, scatter, compress, resize, revspec,
  block_prefix, block_segmented_prefix,
  mul, mul_const, div, exp, log, to_real,
  mmu,
};

}  // namespace mmv
