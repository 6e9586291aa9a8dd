// The state-passing problems and their float64 recurrence
// (mmvram/harness/state_passing_inputs.hpp): the drawn values keep their contract, a seed fixes
// the problem, a packed batch starts where its sequences do, and the recurrence is the one the
// simulator's state passing computes.
#include "catch.hpp"
#include "test_seed.hpp"

#include "mmvram/harness/state_passing_inputs.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

using mmv::test::fresh_seed;
namespace in = mmv::inputs;

// Equal to within a few rounding errors (exp(log(0.5)) need not be 0.5 exactly).
bool about_equal(const std::vector<double>& got, const std::vector<double>& want) {
  if (got.size() != want.size()) return false;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!(std::fabs(got[i] - want[i]) <= 1e-14 * std::fabs(want[i]))) return false;
  return true;
}

TEST_CASE("random_state_passing: shapes, value ranges and starts", "[inputs][state_passing]") {
  const auto seed = fresh_seed();
  CAPTURE(seed);
  for (bool per_head : {false, true}) {
    const mmv::state_shape s{3, 4, 8, per_head};
    const auto p = in::random_state_passing(5000, s, 0.1, seed);
    REQUIRE(p.local.size() == std::size_t(5000 * s.lanes()));
    REQUIRE(p.log_decay.size() == std::size_t(5000 * s.decay_rows()));
    REQUIRE(p.starts.size() == 5000);
    CHECK(p.starts[0] == 1);
    std::int64_t starts = 0, ones = 0;
    for (auto f : p.starts) starts += f;
    for (double l : p.log_decay) {
      CHECK((l <= 0 && l > -1));
      ones += l == 0;
    }
    CHECK(std::fabs(double(starts) / 5000 - 0.1) < 0.03);
    CHECK(std::fabs(double(ones) / double(p.log_decay.size()) - 0.1) < 0.03);
    double sum = 0;
    for (double u : p.local) sum += u;
    CHECK(std::fabs(sum / double(p.local.size())) < 0.05);
    const auto again = in::random_state_passing(5000, s, 0.1, seed);
    CHECK(again.local == p.local);
    CHECK(again.log_decay == p.log_decay);
    CHECK(again.starts == p.starts);
  }
}

TEST_CASE("packed_state_passing starts at its sequences' first chunks", "[inputs][state_passing]") {
  const auto seed = fresh_seed();
  CAPTURE(seed);
  const auto offsets = in::lognormal_chunk_offsets(40, 5.0, 1.0, 64, seed);
  REQUIRE(offsets.size() == 41);
  CHECK(offsets[0] == 0);
  for (std::size_t k = 0; k + 1 < offsets.size(); ++k) CHECK(offsets[k + 1] > offsets[k]);
  const auto p = in::packed_state_passing(offsets, {2, 2, 32, false}, seed);
  REQUIRE(p.chunks == offsets.back());
  std::vector<std::uint8_t> want(std::size_t(p.chunks), 0);
  for (std::size_t k = 0; k + 1 < offsets.size(); ++k) want[std::size_t(offsets[k])] = 1;
  CHECK(p.starts == want);
  // The same seed and shape give the same values as a random problem of that many chunks.
  const auto r = in::random_state_passing(p.chunks, {2, 2, 32, false}, 0.5, seed);
  CHECK(r.local == p.local);
  CHECK(r.log_decay == p.log_decay);
}

TEST_CASE("state_passing_reference is h_j = exp(l_j) h_{j-1} + u_j, restarted at starts", "[inputs][state_passing]") {
  // Two lanes of one head sharing a decay row; chunks 0..3, a start at chunk 2.
  in::state_passing_problem p;
  p.chunks = 4;
  p.lanes_shape = {1, 1, 2, false};
  p.local = {1, -2, 3, 4, 5, -6, 7, 8};
  p.log_decay = {0, std::log(0.5), 0, std::log(0.25)};
  p.starts = {1, 0, 1, 0};
  std::vector<double> h, bound, unsegmented;
  in::state_passing_reference(p, h, bound, &unsegmented);
  CHECK(about_equal(h, {1, -2, 3.5, 3, 5, -6, 8.25, 6.5}));
  CHECK(about_equal(bound, {1, 2, 3.5, 5, 5, 6, 8.25, 9.5}));
  CHECK(about_equal(unsegmented, {1, 2, 3.5, 5, 8.5, 11, 9.125, 10.75}));
  const auto lane1 = in::state_passing_lane(p, 1, false);  // no restarts
  CHECK(about_equal(lane1.h, {-2, 3, -3, 7.25}));
  CHECK(lane1.bound == lane1.unsegmented);
}
