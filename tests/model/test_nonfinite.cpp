// machine::first_nonfinite: the first real result that is not finite, with its instruction's
// ledger position and name and the output index, recorded without stopping the run (so the
// counts stay complete); later non-finite results do not replace it; finite runs report none.
#include "catch.hpp"

#include "mmvram/model/machine.hpp"

#include <cfloat>
#include <cmath>

namespace {

mmv::machine make(mmv::number_format format) {
  mmv::machine_config c;
  c.format = format;
  c.s = 2;
  return mmv::machine(c);
}

}  // namespace

TEST_CASE("an overflow of float32 is recorded at its instruction and index") {
  auto m = make(mmv::number_format::float32);
  const auto x = m.load(std::vector<mmv::real>{1, FLT_MAX, 2, FLT_MAX});  // instruction 1
  const auto y = m.add(x, x);                                            // 2: inf at index 1
  CHECK(m.read(y)[0] == 2);
  const auto z = m.sub(y, y);  // 3: inf - inf = nan, after the first: not recorded
  CHECK(std::isnan(m.read(z)[1]));
  const auto bad = m.first_nonfinite();
  REQUIRE(bad);
  CHECK(bad->sequence == 2);
  CHECK(bad->instruction == "add");
  CHECK(bad->index == 1);
  CHECK(std::isinf(bad->value));
  CHECK(m.costs().records().size() == 3);  // the run went on
}

TEST_CASE("0/0, exp overflow and MMU overflow in float64 are recorded; finite runs report none") {
  {
    auto m = make(mmv::number_format::float64);
    const auto x = m.load(std::vector<mmv::real>{1, 0});
    m.div(x, m.mul(x, 1.0));  // 1/1, 0/0
    REQUIRE(m.first_nonfinite());
    CHECK(m.first_nonfinite()->instruction == "div");
    CHECK(m.first_nonfinite()->index == 1);
    CHECK(std::isnan(m.first_nonfinite()->value));
  }
  {
    auto m = make(mmv::number_format::float64);
    m.exp(m.load(std::vector<mmv::real>{1, 2, 710}));
    REQUIRE(m.first_nonfinite());
    CHECK(m.first_nonfinite()->instruction == "exp");
    CHECK(m.first_nonfinite()->index == 2);
  }
  {
    auto m = make(mmv::number_format::float64);
    const auto w = m.load(std::vector<mmv::real>{1, 1, 1, 1});
    m.mmu(m.load(std::vector<mmv::real>{1, 2, DBL_MAX, DBL_MAX}), w);
    REQUIRE(m.first_nonfinite());
    CHECK(m.first_nonfinite()->instruction == "mmu");
    CHECK(m.first_nonfinite()->index == 2);
  }
  auto m = make(mmv::number_format::float64);
  const auto x = m.load(std::vector<mmv::real>{1e300, -1e300, 0.5});
  m.exp(m.mul(m.add(x, x), 0.0));
  CHECK(!m.first_nonfinite());
}
