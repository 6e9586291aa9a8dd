// MatMulScan against the paper's corollary, MMU steps <= 2 floor(log_s n): the plain form takes
// 2 ceil(log_s n) - 1 (one more when n is not a power of s); matmul_scan_vcu_top meets the bound
// for every n, with the same result (fresh random inputs) and a ledger equal to its closed form.
#include "catch.hpp"
#include "cost_check.hpp"
#include "test_seed.hpp"

#include "mmvram/harness/reference.hpp"
#include "mmvram/algorithms/scan.hpp"

#include <random>
#include <vector>

using mmv::word;

TEST_CASE("matmul_scan_vcu_top takes at most 2 floor(log_s n) MMU steps", "[matmul-scan]") {
  const auto seed = mmv::test::fresh_seed();
  std::mt19937_64 g(seed);
  CAPTURE(seed);
  for (int s : {2, 3, 4, 8, 16}) {
    for (std::int64_t n = 0; n <= 300; n += (n < 70 ? 1 : 23)) {
      CAPTURE(s, n);
      std::vector<word> x(static_cast<std::size_t>(n));
      for (auto& v : x) v = std::uniform_int_distribution<word>(-1000, 1000)(g);
      mmv::machine_config c;
      c.s = s;
      mmv::machine m(c);
      CHECK(m.read(mmv::matmul_scan_vcu_top(m, m.load(x))) == mmv::reference::inclusive_scan(x));
      const auto p = mmv::matmul_scan_vcu_top_predicted_cost(n, s);
      mmv::test::check_ledger_equals(m, p);
      const std::int64_t bound = n < 1 ? 0 : 2 * mmv::floor_log(n, s);
      CHECK(p.mmu_steps <= bound);
      const auto plain = mmv::matmul_scan_predicted_cost(n, s);
      if (n >= 2) CHECK(plain.mmu_steps == 2 * mmv::ceil_log(n, s) - 1);
      if (n >= 2 && plain.mmu_steps <= bound) CHECK(p.steps() == plain.steps());  // n = s^k: unchanged
    }
  }
}
