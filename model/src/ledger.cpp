#include "mmvram/model/ledger.hpp"

#include <algorithm>

namespace mmv {

namespace {
void add_to(unit_costs& u, const instruction_record& r) {
  switch (r.where) {
    case unit::mmu: u.mmu += r.price; break;
    case unit::vcu: u.vcu += r.price; break;
    case unit::scalar:
      u.scalar += r.price;
      ++u.scalar_ops;
      break;
  }
}
}  // namespace

void ledger::retire(instruction_record r) {
  add_to(totals_, r);
  add_to(by_region_[r.region], r);
  depth_ = std::max(depth_, r.depth);
  records_.push_back(std::move(r));
}

}  // namespace mmv
