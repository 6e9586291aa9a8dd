// The one per-element semantics of the VCU (vcu_semantics.hpp), which both backends compute
// with: evaluated at compile time (it stays constexpr, as device code needs), and the backend
// registry that names the backends (backend.hpp).
#include "catch.hpp"
#include "mmvram/model/backend.hpp"
#include "mmvram/model/vcu_semantics.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using mmv::op_code;
namespace vcu = mmv::vcu;

using W = vcu::word;
constexpr W big = std::numeric_limits<vcu::word>::max();

static_assert(vcu::word_lo(2) == -2 && vcu::word_hi(2) == 1);
static_assert(vcu::word_lo(64) == std::numeric_limits<vcu::word>::min() && vcu::word_hi(64) == big);
static_assert(vcu::fits(vcu::binary(op_code::add, W{3}, W{4}), 4) && !vcu::fits(vcu::binary(op_code::add, W{4}, W{4}), 4));
static_assert(vcu::binary(op_code::add, big, big) == vcu::wide(big) * 2);  // exact, never wrapped
static_assert(vcu::binary(op_code::sub_const, W{5}, W{7}) == -2 && vcu::binary(op_code::logic_xor, W{6}, W{3}) == 5);
static_assert(vcu::unary(op_code::neg, std::numeric_limits<vcu::word>::min()) == vcu::wide(big) + 1);
static_assert(vcu::unary(op_code::logic_not, vcu::word{1}) == 0);
static_assert(vcu::compare(op_code::le_const, 2.0, 2.0) && !vcu::compare(op_code::ne, 3, 3));
static_assert(vcu::select(vcu::word{0}, 1.5, 2.5) == 2.5);
static_assert(vcu::shift_bits(op_code::shift_left_bits, -3, 2) == -12 && vcu::shift_bits(op_code::shift_right_bits, -3, 1) == -2);
static_assert(vcu::is_bit_index(31, 32) && !vcu::is_bit_index(32, 32) && vcu::extract_bit(5, 2) == 1);
static_assert(vcu::iota(5, -2, 3, 7) == 1 && vcu::lane_index(3, 7) == 1);
static_assert(vcu::rounded(0.1, true) == static_cast<double>(0.1f) && vcu::rounded(0.1, false) == 0.1);
static_assert(vcu::is_binary<vcu::word>(op_code::logic_and) && !vcu::is_binary<vcu::real>(op_code::logic_and));
static_assert(vcu::is_binary<vcu::real>(op_code::mul_const) && !vcu::is_binary<vcu::word>(op_code::mul));
static_assert(vcu::is_unary<vcu::real>(op_code::exp) && !vcu::is_unary<vcu::word>(op_code::exp));

}  // namespace

TEST_CASE("min and max of reals follow std::min and std::max where an operand is NaN", "[vcu]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(vcu::binary(op_code::min, 1.0, nan) == 1.0);
  CHECK(vcu::binary(op_code::max, 1.0, nan) == 1.0);
  CHECK(std::isnan(vcu::binary(op_code::min, nan, 1.0)));
}

TEST_CASE("the backend registry names every backend once, built in or not", "[backend]") {
  CHECK(mmv::backend_names() == std::vector<std::string>{"simulate", "cuda"});
  CHECK(mmv::backend_choices() == "simulate or cuda");
  CHECK(mmv::backend_choices(true) == "cuda");
  CHECK(mmv::backend_help() == "simulate (CPU) | cuda (GPU, timed)");
  CHECK(!mmv::backend_times("simulate"));
  CHECK(mmv::backend_times("cuda"));
  CHECK_THROWS_AS(mmv::register_backend("tpu", nullptr), std::logic_error);
  mmv::machine_config c;
  c.backend = "tpu";
  CHECK_THROWS_WITH(mmv::make_backend(c), "unknown backend 'tpu' (expected simulate or cuda)");
  c.backend = "simulate";
  CHECK(mmv::make_backend(c)->name() == "simulate");
}
