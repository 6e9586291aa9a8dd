// The closed forms the crossover uses beyond simulation (closed_forms.hpp) equal the ledger of a
// verified run wherever both run: every registry entry with a closed form, s from 2 to 1024, n
// up to 2^13 (one segment, whose counts are the one-segment forms field for field); and they
// stay defined, with the iterated-addition rival below Schwartz, up to n = 2^40.
#include "catch.hpp"
#include "../algorithms/cost_check.hpp"
#include "test_seed.hpp"

#include "mmvram/harness/closed_forms.hpp"
#include "mmvram/harness/registry.hpp"

#include <random>
#include <vector>

using mmv::word;

TEST_CASE("closed forms equal the ledger where the simulator runs", "[closed-forms]") {
  const auto seed = mmv::test::fresh_seed();
  std::mt19937_64 g(seed);
  CAPTURE(seed);
  for (int s : {2, 4, 8, 16, 64, 256, 1024}) {
    for (std::int64_t n : {1, 2, 3, 5, 16, 17, 100, 1000, 4096, 8191}) {
      if (n * s > (std::int64_t{1} << 22)) continue;  // keep the MMU products small
      mmv::algorithm_input in;
      in.n = n;
      in.words.resize(static_cast<std::size_t>(n));
      for (auto& v : in.words) v = std::uniform_int_distribution<word>(0, 9)(g);
      in.flags.assign(static_cast<std::size_t>(n), 0);
      in.flags[0] = 1;
      for (const auto& entry : mmv::algorithm_table()) {
        if (!entry.closed_form) continue;
        const std::string& name = entry.name;
        CAPTURE(name, s, n);
        mmv::machine_config c;
        c.s = s;
        c.record_dag = false;
        if (entry.iterated_addition_limit) c.iterated_addition_limit = entry.iterated_addition_limit(n);
        mmv::machine m(c);
        CHECK(entry.run(m, in).verified);
        mmv::test::check_ledger_equals(m, mmv::closed_form_cost(name, n, s));
      }
    }
  }
  CHECK_THROWS_AS(mmv::closed_form_cost("spmv", 8, 4), mmv::model_error);
  CHECK_THROWS_AS(mmv::closed_form_cost("no-such-algorithm", 8, 4), mmv::model_error);
  CHECK_THROWS_AS(mmv::closed_form_cost("sscr", -1, 4), mmv::model_error);
  CHECK_THROWS_AS(mmv::closed_form_cost("sscr", 8, 1), mmv::model_error);
}

TEST_CASE("closed forms reach n = 2^40", "[closed-forms]") {
  const std::int64_t n = std::int64_t{1} << 40;
  const auto rival = mmv::closed_form_cost("iterated-addition-segmented-scan", n, 16);
  CHECK(rival.vcu_steps == 78);  // k = 40, ceil(log_40 2^40) = 8 levels
  CHECK(rival.steps() < mmv::closed_form_cost("schwartz-segmented-scan", n, 16).steps());
  for (int s = 2; s <= 1024; s *= 2)
    for (const auto& entry : mmv::algorithm_table()) {
      if (!entry.closed_form) continue;
      CAPTURE(entry.name, s);
      const auto p = mmv::closed_form_cost(entry.name, n, s);
      CHECK(p.steps() > 0);
      CHECK(p.depth > 0);
      CHECK(p.depth <= p.steps());
    }
}
