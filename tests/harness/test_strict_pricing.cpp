// Strict re-pricing of a run's ledger (strict_pricing.hpp): each rule on single instructions
// with known sizes, instructions it leaves alone, and whole runs (only the generous
// instructions change, and a run without them keeps its steps and work).
#include "catch.hpp"

#include "mmvram/algorithms/iterated_addition.hpp"
#include "mmvram/algorithms/segmented_baselines.hpp"
#include "mmvram/harness/strict_pricing.hpp"

#include <vector>

using mmv::word;

namespace {

mmv::machine make_machine(int s = 4, std::int64_t limit = 8) {
  mmv::machine_config c;
  c.s = s;
  c.iterated_addition_limit = limit;
  return mmv::machine(c);
}

// The strict steps of the machine's last retired instruction.
std::int64_t last_strict(const mmv::machine& m) { return mmv::strict_steps_of(m.costs().records().back()); }

}  // namespace

TEST_CASE("strict rules price single instructions", "[strict]") {
  auto m = make_machine(8);
  const auto x = m.load(std::vector<word>(1000, 1));
  const auto idx = m.load(std::vector<word>(300, 7));
  m.gather(x, idx);  // 300 routed words: c = 9, 45 steps
  CHECK(last_strict(m) == 45);
  std::vector<word> spots(10);
  for (std::size_t i = 0; i < spots.size(); ++i) spots[i] = static_cast<word>(3 * i);
  m.scatter(x, m.load(spots), m.load(std::vector<word>(10, 5)));  // destination 1000: c = 10, 55
  CHECK(last_strict(m) == 55);
  std::vector<word> mask(1000, 0), pos(1000, 0);
  mask[5] = 1;
  m.compress(x, m.load(mask), m.load(pos));  // source 1000: 55
  CHECK(last_strict(m) == 55);
  m.revspec(x, m.load(std::vector<word>(1000, 0)));  // s = 8: 3 + 1
  CHECK(last_strict(m) == 4);
  m.block_prefix_sum(x, 5);  // k = 5: 2 * 3
  CHECK(last_strict(m) == 6);
  m.block_segmented_prefix_sum(x, m.load(std::vector<word>(1000, 0)), 8);  // 5 * 3 - 1
  CHECK(last_strict(m) == 14);
  m.gather(x, m.load(std::vector<word>(1, 0)));  // one word: one step
  CHECK(last_strict(m) == 1);
  m.add(x, x);
  CHECK(last_strict(m) == 1);
  m.gather_strided(x, 0, 4, 250);  // a fixed wiring: unchanged
  CHECK(last_strict(m) == 1);
}

TEST_CASE("strict pricing of whole runs", "[strict]") {
  const std::int64_t n = 4096;  // k = 12: 4 levels
  auto m = make_machine(4, mmv::iterated_addition_block(n));
  mmv::iterated_addition_scan(m, m.load(std::vector<word>(n, 1)));
  const auto strict = mmv::strict_pricing(m.costs().records());
  const auto& t = m.costs().totals();
  CHECK(strict.mmu_steps == 0);
  // 4 block-prefix (k = 12: 8 steps each, +7) and 3 gathers of 4096, 342, 29 words (78, 45, 15).
  CHECK(strict.extra_steps.at("block-prefix") == 4 * 7);
  CHECK(strict.extra_steps.at("gather") == 77 + 44 + 14);
  CHECK(strict.vcu_steps == t.vcu.steps + 28 + 135);
  CHECK(strict.vcu_work > t.vcu.work);
  // Schwartz uses none of the generous instructions: nothing changes.
  auto plain = make_machine();
  mmv::schwartz_segmented_scan(plain, plain.load(std::vector<word>(n, 1)), plain.load(std::vector<word>(n, 0)));
  const auto same = mmv::strict_pricing(plain.costs().records());
  CHECK(same.steps() == plain.costs().totals().total().steps);
  CHECK(same.vcu_work == plain.costs().totals().vcu.work);
  CHECK(same.extra_steps.empty());
}
