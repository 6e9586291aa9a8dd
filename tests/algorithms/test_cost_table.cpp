// The cost table of docs/algorithms/cost_table.md: every scan and segmented-scan algorithm run
// on n = 2^10, 2^12, ..., 2^20 with s in {2, 4, 16} (the VCU-only ones once: their costs do not
// depend on s), DAG recording off; its recorded steps, depth and work printed beside its
// closed-form prediction and asserted equal. Values are small (|x| <= 3) so B = 32 holds every
// speculative prefix; results are checked against the references.
#include "catch.hpp"
#include "test_seed.hpp"

#include "cost_check.hpp"

#include "mmvram/harness/reference.hpp"
#include "mmvram/algorithms/scan.hpp"
#include "mmvram/algorithms/segmented.hpp"
#include "mmvram/algorithms/segmented_baselines.hpp"

#include <cstdlib>
#include <functional>
#include <iostream>
#include <random>
#include <string>
#include <vector>

using mmv::word;

using mmv::test::fresh_seed;

namespace {

struct input {
  std::vector<word> x, f;
  std::int64_t segments = 0;
};

using run_fn = std::function<mmv::word_vec(mmv::machine&, const mmv::word_vec&, const mmv::word_vec&)>;
using cost_fn = std::function<mmv::cost_prediction(std::int64_t n, int s, std::int64_t segments)>;

// One row of the table: how to run the algorithm and its prediction.
struct algorithm {
  const char* name;
  bool uses_mmu;     // VCU-only costs do not depend on s: run them once (s = 2), print "any"
  const char* kind;  // "scan", "segmented scan", "segmented sum"
  run_fn run;
  cost_fn predicted;
};

// A prediction that depends on n and s only.
cost_fn by_size(mmv::cost_prediction (*f)(std::int64_t, int)) {
  return [f](std::int64_t n, int s, std::int64_t) { return f(n, s); };
}

const std::vector<algorithm>& algorithms() {
  using mmv::machine;
  using mmv::word_vec;
  static const std::vector<algorithm> all{
      {"hillis_steele", false, "scan",
       [](machine& m, const word_vec& x, const word_vec&) { return mmv::hillis_steele_scan(m, x); },
       by_size(mmv::hillis_steele_predicted_cost)},
      {"brent_kung", false, "scan",
       [](machine& m, const word_vec& x, const word_vec&) { return mmv::brent_kung_scan(m, x); },
       by_size(mmv::brent_kung_predicted_cost)},
      {"matmul_scan", true, "scan",
       [](machine& m, const word_vec& x, const word_vec&) { return mmv::matmul_scan(m, x); },
       by_size(mmv::matmul_scan_predicted_cost)},
      {"schwartz", false, "segmented scan",
       [](machine& m, const word_vec& x, const word_vec& f) { return mmv::schwartz_segmented_scan(m, x, f); },
       by_size(mmv::schwartz_segmented_scan_predicted_cost)},
      {"min_index", false, "segmented scan",
       [](machine& m, const word_vec& x, const word_vec& f) { return mmv::min_index_segmented_scan(m, x, f); },
       by_size(mmv::min_index_segmented_scan_predicted_cost)},
      {"scd", true, "segmented sum",
       [](machine& m, const word_vec& x, const word_vec& f) { return mmv::scd_segmented_sum(m, x, f); },
       [](std::int64_t n, int s, std::int64_t k) { return mmv::scd_predicted_cost(n, s, k); }},
      {"sscr", true, "segmented scan",
       [](machine& m, const word_vec& x, const word_vec& f) { return mmv::sscr_segmented_scan(m, x, f); },
       [](std::int64_t n, int s, std::int64_t k) { return mmv::sscr_predicted_cost(n, s, k); }},
      {"block_sscr", true, "segmented scan",
       [](machine& m, const word_vec& x, const word_vec& f) { return mmv::block_sscr_segmented_scan(m, x, f); },
       by_size(mmv::block_sscr_predicted_cost)}};
  return all;
}

std::vector<word> expected(const algorithm& a, const input& in) {
  const std::string kind = a.kind;
  if (kind == "scan") return mmv::reference::inclusive_scan(in.x);
  if (kind == "segmented sum") return mmv::reference::segmented_sum(in.x, in.f);
  return mmv::reference::segmented_scan(in.x, in.f);
}

}  // namespace

TEST_CASE("cost table: recorded steps, depth and work equal the formulas", "[cost-table]") {
  const auto seed = fresh_seed();
  std::mt19937_64 g(seed);
  CAPTURE(seed);
  mmv::test::print_cost_table_header("log2 n");
  for (int s : {2, 4, 16}) {
    for (int e = 10; e <= 20; e += 2) {
      const std::int64_t n = std::int64_t{1} << e;
      input in;
      in.x.resize(static_cast<std::size_t>(n));
      in.f.resize(static_cast<std::size_t>(n));
      for (auto& v : in.x) v = std::uniform_int_distribution<word>(-3, 3)(g);
      for (auto& b : in.f) b = std::bernoulli_distribution(1.0 / 64)(g) ? 1 : 0;
      in.segments = mmv::reference::segmented_sum(in.x, in.f).size();
      for (const auto& a : algorithms()) {
        if (!a.uses_mmu && s != 2) continue;
        mmv::machine_config c;
        c.s = s;
        c.record_dag = false;
        mmv::machine m(c);
        const auto out = m.read(a.run(m, m.load(in.x, "x"), m.load(in.f, "f")));
        const auto p = a.predicted(n, s, in.segments);
        CAPTURE(a.name, s, n);
        CHECK(out == expected(a, in));
        mmv::test::check_cost_row(a.name, a.uses_mmu ? std::to_string(s) : "any", std::to_string(e), m, p);
      }
    }
  }
  std::cout << std::flush;
}
