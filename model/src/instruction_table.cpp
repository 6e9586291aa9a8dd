// The instruction table (instruction_table.hpp). Each price is a function of operand sizes only,
// so the ledger, the backends, the cost predictions and the printed table agree by construction.
#include "mmvram/model/instruction_table.hpp"

#include <array>
#include <string>

namespace mmv {

namespace {

using z = operand_sizes;
// One VCU step writing z.out words after reading `read` words: work = one operation per output.
constexpr cost vcu(std::int64_t out, std::int64_t read) { return cost{1, out, 0, 0, read, out}; }

cost price_load(const z& o) { return cost{0, 0, 0, 0, o.out, o.out}; }
cost price_two(const z& o) { return vcu(o.out, 2 * o.out); }
cost price_one(const z& o) { return vcu(o.out, o.out); }
cost price_three(const z& o) { return vcu(o.out, 3 * o.out); }
cost price_none(const z& o) { return vcu(o.out, 0); }
cost price_resize(const z& o) { return vcu(o.out, std::min(o.out, o.in0)); }
cost price_scatter(const z& o) { return vcu(o.out, o.out + 2 * o.in1); }  // dst copied, (idx, v) read
cost price_compress(const z& o) { return vcu(o.out, 3 * o.in0); }         // work = kept elements
cost price_revspec(const z& o) { return cost{1, o.out * o.s, 0, 0, 2 * o.out, o.out}; }
cost price_block(const z& o) { return cost{1, o.out * o.k, 0, 0, o.out, o.out}; }
cost price_block_segmented(const z& o) { return cost{1, o.out * o.k, 0, 0, 2 * o.out, o.out}; }
cost price_mmu(const z& o) {
  const std::int64_t rows = o.in0 / o.s, macs = rows * o.s * o.s;
  return cost{1, macs, (rows + o.s - 1) / o.s, macs, rows * o.s + o.s * o.s, rows * o.s};
}

constexpr const char* adder = "AC0: B-bit adder";
constexpr const char* comparator = "AC0: comparator";
constexpr const char* ieee = "IEEE unit (float modes only)";
constexpr const char* one = "1 step, work m, read m";
constexpr const char* two = "1 step, work m, read 2m";

const std::vector<instruction_info> table = {
    {op_code::load, "load", unit::scalar, "host transfer (free)", "0 steps; m words read and written", false, false, price_load},
    {op_code::add, "add", unit::vcu, adder, two, false, false, price_two},
    {op_code::add_const, "add-const", unit::vcu, adder, one, false, false, price_one},
    {op_code::sub, "sub", unit::vcu, adder, two, false, false, price_two},
    {op_code::sub_const, "sub-const", unit::vcu, adder, one, false, false, price_one},
    {op_code::neg, "neg", unit::vcu, adder, one, false, false, price_one},
    {op_code::min, "min", unit::vcu, "AC0: comparator + mux", two, false, false, price_two},
    {op_code::max, "max", unit::vcu, "AC0: comparator + mux", two, false, false, price_two},
    {op_code::eq, "eq", unit::vcu, comparator, two, false, false, price_two},
    {op_code::ne, "ne", unit::vcu, comparator, two, false, false, price_two},
    {op_code::lt, "lt", unit::vcu, comparator, two, false, false, price_two},
    {op_code::le, "le", unit::vcu, comparator, two, false, false, price_two},
    {op_code::gt, "gt", unit::vcu, comparator, two, false, false, price_two},
    {op_code::ge, "ge", unit::vcu, comparator, two, false, false, price_two},
    {op_code::eq_const, "eq-const", unit::vcu, comparator, one, false, false, price_one},
    {op_code::ne_const, "ne-const", unit::vcu, comparator, one, false, false, price_one},
    {op_code::lt_const, "lt-const", unit::vcu, comparator, one, false, false, price_one},
    {op_code::le_const, "le-const", unit::vcu, comparator, one, false, false, price_one},
    {op_code::gt_const, "gt-const", unit::vcu, comparator, one, false, false, price_one},
    {op_code::ge_const, "ge-const", unit::vcu, comparator, one, false, false, price_one},
    {op_code::select, "select", unit::vcu, "AC0: multiplexer", "1 step, work m, read 3m", false, false, price_three},
    {op_code::select_const, "select-const", unit::vcu, "AC0: multiplexer", two, false, false, price_two},
    {op_code::logic_and, "and", unit::vcu, "AC0: one gate per bit", two, false, false, price_two},
    {op_code::logic_or, "or", unit::vcu, "AC0: one gate per bit", two, false, false, price_two},
    {op_code::logic_xor, "xor", unit::vcu, "AC0: one gate per bit", two, false, false, price_two},
    {op_code::logic_not, "not", unit::vcu, "AC0: one gate per flag", one, false, false, price_one},
    {op_code::shift_left_bits, "shl", unit::vcu, "wiring (constant shift)", one, false, false, price_one},
    {op_code::shift_right_bits, "shr", unit::vcu, "wiring (constant shift)", one, false, false, price_one},
    {op_code::extract_bit, "extract-bit", unit::vcu, "AC0: B-way multiplexer", two, false, false, price_two},
    {op_code::shift, "shift", unit::vcu, "wiring (vector shift, DIFF)", one, false, false, price_one},
    {op_code::broadcast, "broadcast", unit::vcu, "constants (depth 0)", "1 step, work m, read 0", false, false, price_none},
    {op_code::iota, "iota", unit::vcu, "constants (depth 0)", "1 step, work m, read 0", false, false, price_none},
    {op_code::lane_index, "lane-index", unit::vcu, "constants (depth 0)", "1 step, work m, read 0", false, false, price_none},
    {op_code::gather, "gather", unit::vcu, "AC0: addressed read", "1 step, work m, read 2m (index + value)", false, false, price_two},
    {op_code::gather_strided, "gather-strided", unit::vcu, "AC0: addressed read", one, false, false, price_one},
    {op_code::scatter, "scatter", unit::vcu, "AC0: addressed write (EREW)", "1 step, work = dst length d, read d + 2 x values", false, false, price_scatter},
    {op_code::compress, "compress", unit::vcu, "AC0: addressed write, given ranks", "1 step, work = kept, read 3 x input length", false, false, price_compress},
    {op_code::resize, "resize", unit::vcu, "wiring", "1 step, work m, read min(m, input length)", false, false, price_resize},
    {op_code::revspec, "revspec", unit::vcu, "AC0: s-way priority select + adder", "1 step, work m*s, read 2m", false, false, price_revspec},
    {op_code::block_prefix, "block-prefix", unit::vcu, "AC0: iterated addition of <= k words", "1 step, work m*k, read m (optional)", false, true, price_block},
    {op_code::block_segmented_prefix, "block-seg-prefix", unit::vcu, "AC0: priority select + iter. addition", "1 step, work m*k, read 2m (optional)", false, true, price_block_segmented},
    {op_code::mul, "mul", unit::vcu, ieee, two, true, false, price_two},
    {op_code::mul_const, "mul-const", unit::vcu, ieee, one, true, false, price_one},
    {op_code::div, "div", unit::vcu, ieee, two, true, false, price_two},
    {op_code::exp, "exp", unit::vcu, ieee, one, true, false, price_one},
    {op_code::log, "log", unit::vcu, ieee, one, true, false, price_one},
    {op_code::to_real, "to-real", unit::vcu, ieee, one, true, false, price_one},
    {op_code::mmu, "mmu", unit::mmu, "matrix unit: (m/s x s)(s x s)", "1 step, ceil(m/s^2) tiles, m*s mult-adds, read m + s^2", false, false, price_mmu},
};

}  // namespace

const std::vector<instruction_info>& instruction_table() { return table; }

const instruction_info& info_of(op_code code) {
  static const auto by_code = [] {
    std::array<const instruction_info*, static_cast<std::size_t>(op_code::mmu) + 1> rows{};
    for (const auto& r : table) rows[static_cast<std::size_t>(r.code)] = &r;
    return rows;
  }();
  return *by_code[static_cast<std::size_t>(code)];
}

std::optional<op_code> find_instruction(std::string_view name) {
  for (const auto& r : table)
    if (name == r.name) return r.code;
  return std::nullopt;
}

cost price_of(op_code code, const operand_sizes& sizes) { return info_of(code).price(sizes); }

op_code comparison_op(std::string_view name, bool with_constant) {
  static constexpr std::array<std::string_view, 6> names = {"eq", "ne", "lt", "le", "gt", "ge"};
  for (std::size_t i = 0; i < names.size(); ++i)
    if (name == names[i])
      return static_cast<op_code>(static_cast<std::size_t>(with_constant ? op_code::eq_const : op_code::eq) + i);
  throw model_error("compare: unknown comparison '" + std::string(name) + "' (expected eq ne lt le gt ge)");
}

}  // namespace mmv
