// The backend registry: `simulate` is always there; other backends register a factory.
#include "mmvram/model/backend.hpp"

#include "simulate/simulate_backend.hpp"

#include <map>
#include <mutex>

namespace mmv {

namespace {
std::map<std::string, backend_factory>& factories() {
  static std::map<std::string, backend_factory> f = {
      {"simulate", [](const machine_config& c) { return std::make_unique<simulate::simulate_backend>(c); }}};
  return f;
}
std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}
}  // namespace

void register_backend(const std::string& name, backend_factory factory) {
  const std::lock_guard lock(registry_mutex());
  factories()[name] = std::move(factory);
}

std::vector<std::string> backend_names() {
  const std::lock_guard lock(registry_mutex());
  std::vector<std::string> names;
  for (const auto& [name, f] : factories()) names.push_back(name);
  return names;
}

std::unique_ptr<backend> make_backend(const machine_config& config) {
  backend_factory f;
  {
    const std::lock_guard lock(registry_mutex());
    const auto it = factories().find(config.backend);
    if (it == factories().end()) {
      if (config.backend == "cuda")
        throw model_error("backend 'cuda' is not built into this program (no CUDA toolkit was found when it was built)");
      throw model_error("unknown backend '" + config.backend + "' (expected simulate or cuda)");
    }
    f = it->second;
  }
  return f(config);
}

}  // namespace mmv
