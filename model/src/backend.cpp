// The backend registry: every backend of the machine is named here once, with what help texts
// and messages say of it; `simulate` is built in, the others register their factory when built.
#include "mmvram/model/backend.hpp"

#include "simulate/simulate_backend.hpp"

#include <mutex>
#include <stdexcept>

namespace mmv {

namespace {

struct backend_entry {
  std::string name;
  std::string summary;     // a few words for help texts
  bool timing;             // measures its instructions on a device
  std::string absent;      // why a program may lack it
  backend_factory factory; // empty until registered
};

std::vector<backend_entry>& entries() {
  static std::vector<backend_entry> e = {
      {"simulate", "CPU", false, "", [](const machine_config& c) { return std::make_unique<simulate::simulate_backend>(c); }},
      {"cuda", "GPU, timed", true, "no CUDA toolkit was found when it was built", nullptr}};
  return e;
}

std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}

// The names of the entries that pass `keep`, joined as "a, b or c".
template <class F>
std::string joined(F keep) {
  std::vector<std::string> names;
  for (const auto& e : entries())
    if (keep(e)) names.push_back(e.name);
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i)
    text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return text;
}

}  // namespace

void register_backend(const std::string& name, backend_factory factory) {
  const std::lock_guard lock(registry_mutex());
  for (auto& e : entries())
    if (e.name == name) {
      e.factory = std::move(factory);
      return;
    }
  throw std::logic_error("register_backend: '" + name + "' is not a backend of the machine (backend.cpp)");
}

std::vector<std::string> backend_names() {
  std::vector<std::string> names;
  for (const auto& e : entries()) names.push_back(e.name);
  return names;
}

std::string backend_choices(bool timing_only) {
  return joined([&](const backend_entry& e) { return !timing_only || e.timing; });
}

std::string backend_help() {
  std::string text;
  for (const auto& e : entries()) text += (text.empty() ? "" : " | ") + e.name + " (" + e.summary + ")";
  return text;
}

bool backend_times(const std::string& name) {
  for (const auto& e : entries())
    if (e.name == name) return e.timing;
  return false;
}

std::unique_ptr<backend> make_backend(const machine_config& config) {
  backend_factory f;
  {
    const std::lock_guard lock(registry_mutex());
    for (const auto& e : entries())
      if (e.name == config.backend) {
        if (!e.factory) throw model_error("backend '" + e.name + "' is not built into this program (" + e.absent + ")");
        f = e.factory;
      }
  }
  if (!f) throw model_error("unknown backend '" + config.backend + "' (expected " + backend_choices() + ")");
  return f(config);
}

}  // namespace mmv
