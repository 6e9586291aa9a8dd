#include "mmvram/harness/closed_forms.hpp"

#include "mmvram/harness/registry.hpp"

namespace mmv {

cost_prediction closed_form_cost(const std::string& name, std::int64_t n, int s) {
  const algorithm_entry& e = find_algorithm(name);
  if (!e.closed_form) throw model_error("no closed form in n and s for '" + name + "' (" + e.no_closed_form + ")");
  return e.closed_form(n, s);
}

}  // namespace mmv
