// `mmvram closed-forms`: the closed-form counts of the scans (closed_forms.hpp) for every named
// algorithm, n and s, as CSV. Nothing is simulated, so n may reach 2^40 (the crossover).
#include "commands.hpp"

#include "mmvram/harness/closed_forms.hpp"

#include <iostream>

namespace mmv::tool {

int print_closed_forms(const closed_forms_options& o) {
  for (const auto& name : o.algorithms) closed_form_cost(name, 1, 2);  // names unknown or without a form fail first
  std::cout << "algorithm,n,s,steps,mmu_steps,vcu_steps,depth_steps\n";
  for (const auto& name : o.algorithms)
    for (int s : o.ss)
      for (auto n : o.ns) {
        const cost_prediction p = closed_form_cost(name, n, s);
        std::cout << name << "," << n << "," << s << "," << p.steps() << "," << p.mmu_steps << "," << p.vcu_steps << ","
                  << p.depth << "\n";
      }
  return 0;
}

}  // namespace mmv::tool
