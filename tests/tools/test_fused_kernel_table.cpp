// The registry's fused_kernels against the GPU tool's kernel table (CUDA builds, no device
// needed): the fused kernels of all_kernels() (families "ours" and "ablation") are the union of
// the registry entries' fused_kernels, each entry's the ones `mmvram kernels check ALGO`
// runs for it; an entry naming state-propagation methods names every method of
// state_passing.hpp's state_passing_method.
#include "catch.hpp"

#include "check_algorithm.hpp"
#include "kernels.hpp"
#include "mmvram/harness/registry.hpp"

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace {

// The enumerators of `enum class state_passing_method { ... }` in the GPU header.
std::set<std::string> state_passing_methods() {
  std::ifstream in(std::string(MMVRAM_SOURCE_DIR) + "/gpu/kernels/include/mmvram/gpu/state_passing.hpp");
  std::stringstream text;
  text << in.rdbuf();
  const std::string header = text.str();
  std::smatch m;
  std::set<std::string> names;
  if (!std::regex_search(header, m, std::regex(R"(enum class state_passing_method\s*\{([^}]*)\})"))) return names;
  const std::string body = m[1];
  const std::regex enumerator(R"(([A-Za-z_][A-Za-z0-9_]*)\s*(=[^,]*)?(,|$))");
  for (auto it = std::sregex_iterator(body.begin(), body.end(), enumerator); it != std::sregex_iterator(); ++it)
    names.insert((*it)[1]);
  return names;
}

}  // namespace

TEST_CASE("the GPU tool's fused kernels are the registry's fused_kernels") {
  namespace h = mmv::tool::kernels;
  std::set<std::string> table;
  for (const auto& k : h::all_kernels())
    if (k.family == "ours" || k.family == "ablation") table.insert(k.name);
  const std::set<std::string> methods = state_passing_methods();
  REQUIRE(!table.empty());
  REQUIRE(methods.size() >= 2);

  std::set<std::string> registry;
  bool any_methods = false;
  for (const auto& e : mmv::algorithm_table()) {
    CAPTURE(e.name);
    const std::set<std::string> listed(e.fused_kernels.begin(), e.fused_kernels.end());
    std::set<std::string> checked;  // what `mmvram kernels check ALGO` runs for it
    for (const auto* k : h::fused_kernels_of(e.name)) checked.insert(k->name);
    const bool are_methods = !listed.empty() && std::includes(methods.begin(), methods.end(), listed.begin(), listed.end());
    if (are_methods) {
      any_methods = true;
      CHECK(listed == methods);
      CHECK(checked.empty());
      continue;
    }
    CHECK(listed == checked);
    registry.insert(listed.begin(), listed.end());
  }
  CHECK(any_methods);
  CHECK(registry == table);
}
