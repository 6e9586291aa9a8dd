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

void ledger::set_measured(std::size_t first, const std::vector<double>& ns, double span_ns) {
  span_ns_ += span_ns;
  for (std::size_t i = 0; i < ns.size() && first + i < records_.size(); ++i) {
    auto& r = records_[first + i];
    if (ns[i] < 0) continue;  // not measured (span-only timing)
    r.measured_ns = ns[i];
    if (r.where == unit::scalar) continue;  // host transfers are not the algorithm's time
    totals_.measured_ns += ns[i];
    by_region_[r.region].measured_ns += ns[i];
  }
  measured_ = !records_.empty() && std::all_of(records_.begin(), records_.end(), [](const instruction_record& r) {
    return r.where == unit::scalar || r.measured_ns >= 0;
  });
}

}  // namespace mmv
