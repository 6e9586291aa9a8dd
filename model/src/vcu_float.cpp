// VCU float-mode extensions (docs/model.md): IEEE mul, div, exp, log and int-to-real
// conversion. They exist only on float32/float64 machines.
#include "mmvram/model/machine.hpp"

#include "word_arith.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace mmv {

using detail::exact_words;

// ---- float-mode extensions ----

real_vec machine::mul(const real_vec& a, const real_vec& b) {
  require_type<real>();
  require_same_length("mul", a.size(), b.size());
  array<real> out = a.values() * b.values();
  detail::round_to_format(out, config_.format);
  return retire<real>("mul", unit::vcu, cost_of_vcu(a.size(), 2 * a.size()), std::move(out), {a.node_, b.node_});
}

real_vec machine::mul(const real_vec& a, real c) {
  require_type<real>();
  c = detail::round_constant(c, config_.format);
  array<real> out = a.values() * c;
  detail::round_to_format(out, config_.format);
  return retire<real>("mul-const", unit::vcu, cost_of_vcu(a.size(), a.size()), std::move(out), {a.node_});
}

real_vec machine::div(const real_vec& a, const real_vec& b) {
  require_type<real>();
  require_same_length("div", a.size(), b.size());
  array<real> out = a.values() / b.values();
  detail::round_to_format(out, config_.format);
  return retire<real>("div", unit::vcu, cost_of_vcu(a.size(), 2 * a.size()), std::move(out), {a.node_, b.node_});
}

real_vec machine::exp(const real_vec& a) {
  require_type<real>();
  array<real> out = a.values().unaryExpr([](real v) { return std::exp(v); });  // std::exp: exact underflow to 0
  detail::round_to_format(out, config_.format);
  return retire<real>("exp", unit::vcu, cost_of_vcu(a.size(), a.size()), std::move(out), {a.node_});
}

real_vec machine::log(const real_vec& a) {
  require_type<real>();
  array<real> out = a.values().unaryExpr([](real v) { return std::log(v); });
  detail::round_to_format(out, config_.format);
  return retire<real>("log", unit::vcu, cost_of_vcu(a.size(), a.size()), std::move(out), {a.node_});
}

real_vec machine::to_real(const word_vec& a) {
  require_type<real>();
  array<real> out = a.values().cast<real>();
  detail::round_to_format(out, config_.format);
  return retire<real>("to-real", unit::vcu, cost_of_vcu(a.size(), a.size()), std::move(out), {a.node_});
}

}  // namespace mmv
