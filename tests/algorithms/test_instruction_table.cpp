// One instruction table: every op that any registered algorithm retires, in every number format
// it supports, is a row of the table with the unit the ledger recorded, and the ledger charged
// exactly the table's price for the record's operand sizes. The table itself has one row per op
// code and unique names.
#include <set>

#include "catch.hpp"
#include "mmvram/harness/registry.hpp"
#include "mmvram/model/instruction_table.hpp"
#include "test_seed.hpp"

#include <random>

namespace {

using namespace mmv;

// A small random input of the entry's shape (values in [0, 9], flags at density 1/4).
algorithm_input small_input(const algorithm_entry& e, number_format f, std::int64_t n, std::mt19937_64& g) {
  algorithm_input in;
  in.n = n;
  const auto len = e.shape == input_shape::matrix_pair ? n * n : n;
  for (std::int64_t i = 0; i < len; ++i) {
    in.words.push_back(static_cast<word>(g() % 10));
    in.words2.push_back(static_cast<word>(g() % 10));
    in.reals.push_back(static_cast<real>(g() % 1000) / 1000.0);
    in.flags.push_back(i == 0 || g() % 4 == 0 ? 1 : 0);
    in.decays.push_back(0.5 + static_cast<real>(g() % 500) / 1000.0);
  }
  if (e.shape == input_shape::lanes) {  // n chunks of 2 x 2 x 3 lanes, one log-decay per row
    in.lanes = {2, 2, 3, false};
    in.reals.resize(static_cast<std::size_t>(n * in.lanes.lanes()), 0.5);
    for (std::int64_t i = 0; i < n * in.lanes.decay_rows(); ++i) in.log_decays.push_back(-static_cast<real>(g() % 1000) / 1000.0);
  }
  if (e.shape == input_shape::sparse_matrix) {  // one nonzero per flag run, square n x n
    in.matrix.rows = in.matrix.cols = n;
    in.matrix.row_ptr.assign(static_cast<std::size_t>(n) + 1, 0);
    for (std::int64_t r = 0; r < n; ++r) {
      in.matrix.row_ptr[static_cast<std::size_t>(r) + 1] = r + 1;
      in.matrix.col_idx.push_back(static_cast<std::int64_t>(g() % static_cast<std::uint64_t>(n)));
      in.matrix.values.push_back(f == number_format::integer ? 3.0 : 0.25);
    }
  }
  return in;
}

}  // namespace

TEST_CASE("the instruction table has one row per op code and unique names", "[table]") {
  std::set<std::string> names;
  for (const auto& r : instruction_table()) {
    CHECK(names.insert(r.name).second);
    CHECK(&info_of(r.code) == &r);
    CHECK(find_instruction(r.name) == r.code);
  }
  CHECK(instruction_table().size() == static_cast<std::size_t>(op_code::mmu) + 1);
}

TEST_CASE("every record of every algorithm is priced by the instruction table", "[table]") {
  const auto seed = mmv::test::fresh_seed();
  CAPTURE(seed);
  std::mt19937_64 g(seed);
  std::set<std::string> seen;
  for (const auto& e : algorithm_table())
    for (const number_format f : {number_format::integer, number_format::float32, number_format::float64}) {
      if (f == number_format::integer ? !e.integer_ok : !e.float_ok) continue;
      for (const int s : {2, 3, 16}) {
        const std::int64_t n = e.shape == input_shape::matrix_pair ? 3 : 37;
        machine_config c;
        c.s = s, c.format = f, c.word_bits = f == number_format::float64 ? 64 : 32, c.record_dag = false;
        c.iterated_addition_limit = 64;
        machine m(c);
        CAPTURE(e.name, to_string(f), s);
        const auto outcome = e.run(m, small_input(e, f, n, g));
        CHECK((outcome.verified || e.breaks_down));
        for (const auto& r : m.costs().records()) {
          CAPTURE(r.op);
          const auto code = r.where == unit::scalar ? std::optional(op_code::load) : find_instruction(r.op);
          REQUIRE(code.has_value());
          CHECK(info_of(*code).where == r.where);
          CHECK(r.price == price_of(*code, r.sizes));
          CHECK(r.sizes.out == r.length);
          seen.insert(info_of(*code).name);
        }
      }
    }
  CHECK(seen.count("mmu") == 1);
  CHECK(seen.count("revspec") == 1);
  CHECK(seen.count("compress") == 1);
}
