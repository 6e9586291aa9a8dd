#include "mmvram/harness/strict_pricing.hpp"

#include "mmvram/algorithms/common.hpp"

#include <algorithm>

namespace mmv {

namespace {

std::int64_t log2_ceil(std::int64_t v) { return v <= 1 ? 0 : ceil_log(v, 2); }

// The number of words an instruction routes or sums over, per step of its strict form.
std::int64_t routed_words(const instruction_record& r) {
  if (r.op == "compress") return r.price.words_read / 3;  // the source: 3 words read per element
  return r.length;                                        // gather's output, scatter's destination
}

}  // namespace

std::int64_t strict_steps_of(const instruction_record& r) {
  if (r.op == "gather" || r.op == "scatter" || r.op == "compress") {
    const std::int64_t c = log2_ceil(routed_words(r));
    return std::max<std::int64_t>(1, c * (c + 1) / 2);
  }
  const std::int64_t width = r.length > 0 ? r.price.work / r.length : 0;  // s or k
  if (r.op == "revspec") return log2_ceil(width) + 1;
  if (r.op == "block-prefix") return std::max<std::int64_t>(1, 2 * log2_ceil(width));
  if (r.op == "block-seg-prefix") return std::max<std::int64_t>(1, 5 * log2_ceil(width) - 1);
  return r.price.steps;
}

strict_costs strict_pricing(const std::vector<instruction_record>& records) {
  strict_costs out;
  for (const auto& r : records) {
    if (r.where == unit::mmu) {
      out.mmu_steps += r.price.steps;
      continue;
    }
    if (r.where != unit::vcu) continue;
    const std::int64_t steps = strict_steps_of(r);
    out.vcu_steps += steps;
    if (steps == r.price.steps) {
      out.vcu_work += r.price.work;
      continue;
    }
    out.vcu_work += steps * std::max(routed_words(r), r.length);
    out.extra_steps[r.op] += steps - r.price.steps;
  }
  return out;
}

}  // namespace mmv
