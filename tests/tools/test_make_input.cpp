// make_input's random inputs are the input library's: for every registered algorithm and format,
// the options of `mmvram run` (--n --density --dist --seed --max-value --signed --bigbird
// --heads --rows --cols --decay) reach inputs::random_run_input unchanged, so the backend
// comparison, which draws from the library directly, gets the input `mmvram run` draws.
#include "catch.hpp"
#include "test_seed.hpp"

#include "inputs.hpp"

#include "mmvram/harness/registry.hpp"
#include "mmvram/harness/run_inputs.hpp"

#include <vector>

namespace {

bool same(const mmv::algorithm_input& a, const mmv::algorithm_input& b) {
  return a.words == b.words && a.words2 == b.words2 && a.reals == b.reals && a.flags == b.flags &&
         a.decays == b.decays && a.log_decays == b.log_decays && a.matrix.row_ptr == b.matrix.row_ptr &&
         a.matrix.col_idx == b.matrix.col_idx && a.matrix.values == b.matrix.values && a.n == b.n &&
         a.lanes.lanes() == b.lanes.lanes();
}

}  // namespace

TEST_CASE("make_input draws inputs::random_run_input of the run's options", "[inputs]") {
  mmv::inputs::stream r(mmv::test::fresh_seed());
  for (const auto& e : mmv::algorithm_table())
    for (const auto f : {mmv::number_format::integer, mmv::number_format::float32, mmv::number_format::float64}) {
      if (f == mmv::number_format::integer ? !e.integer_ok : !e.float_ok) continue;
      const auto& sh = mmv::facts_of(e.shape);
      mmv::tool::input_options o;
      o.n = sh.square ? r.integer(1, 10) : sh.lanes ? r.integer(1, 40) : r.integer(1, 2000);
      o.density = r.unit(), o.seed = r.next(), o.signed_values = r.integer(0, 1) == 1;
      if (f == mmv::number_format::integer && r.integer(0, 1)) o.max_value = r.integer(1, 50);
      if (sh.random_segments && r.integer(0, 1)) o.dist = mmv::inputs::distribution::parse("geometric:16");
      if (sh.lanes) o.heads = r.integer(1, 3), o.rows = r.integer(1, 3), o.cols = r.integer(1, 3), o.per_head = r.integer(0, 1);
      if (sh.matrix && !o.dist && r.integer(0, 1)) o.bigbird = {16, 1}, o.n = 16 * r.integer(1, 8);
      mmv::inputs::run_draw d;
      d.n = o.n, d.density = o.density, d.dist = o.dist, d.seed = o.seed, d.max_value = o.max_value;
      d.signed_values = o.signed_values, d.bigbird = o.bigbird;
      d.lanes = mmv::state_shape{o.heads, o.rows, o.cols, o.per_head};
      CAPTURE(e.name, static_cast<int>(f), o.n, o.density, o.seed, o.signed_values, o.bigbird.size());
      CHECK(same(mmv::tool::make_input(e, o, f, 64), mmv::inputs::random_run_input(e.shape, d, f, 64)));
    }
}
