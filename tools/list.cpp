// `mmvram list`: every algorithm of the registry with its units, bounds and word width.
#include "commands.hpp"

#include "mmvram/harness/registry.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iomanip>
#include <iostream>

namespace mmv::tool {

namespace {

std::string modes_of(const algorithm_entry& e) {
  if (e.integer_ok && e.float_ok) return "integer, float";
  return e.integer_ok ? "integer" : "float";
}

using ordered_json = nlohmann::ordered_json;

// One object on one line, `{"key": value, ...}`: nlohmann writes every key and value; the
// layout (one entry a line, a space after each colon and comma) is the list's own.
std::string one_line(const ordered_json& o) {
  std::string line = "{";
  for (auto it = o.begin(); it != o.end(); ++it)
    line += (it == o.begin() ? "" : ", ") + ordered_json(it.key()).dump() + ": " +
            it.value().dump(-1, ' ', false, ordered_json::error_handler_t::replace);
  return line + "}";
}

}  // namespace

int print_list(const list_options& o) {
  const auto& table = algorithm_table();
  if (o.format == report_format::json) {
    std::cout << "[";
    for (std::size_t i = 0; i < table.size(); ++i) {
      const auto& e = table[i];
      const ordered_json entry = {{"name", e.name},
                                  {"title", e.title},
                                  {"units", e.units},
                                  {"step_bound", e.step_bound},
                                  {"work_bound", e.work_bound},
                                  {"min_word_bits", e.min_word_bits},
                                  {"input", to_string(e.shape)},
                                  {"modes", modes_of(e)}};
      std::cout << (i ? ",\n " : "\n ") << one_line(entry);
    }
    std::cout << "\n]\n";
    return 0;
  }
  std::size_t name_w = 26, units_w = 10;  // the widest name and units, plus two spaces
  for (const auto& e : table) name_w = std::max(name_w, e.name.size() + 2), units_w = std::max(units_w, e.units.size() + 2);
  const int nw = static_cast<int>(name_w), uw = static_cast<int>(units_w);
  std::cout << std::left << std::setw(nw) << "algorithm" << std::setw(uw) << "units" << std::setw(24) << "steps"
            << std::setw(14) << "work" << std::setw(16) << "input" << std::setw(16) << "modes"
            << "minimum word width B\n";
  for (const auto& e : table)
    std::cout << std::left << std::setw(nw) << e.name << std::setw(uw) << e.units << std::setw(24) << e.step_bound
              << std::setw(14) << e.work_bound << std::setw(16) << to_string(e.shape) << std::setw(16) << modes_of(e)
              << e.min_word_bits << "\n";
  std::cout << "\nminimum word width B: what B must hold (R: the largest |sum| of a contiguous range of x); every\n"
               "integer run reports the B its input needs as min_word_bits (docs/tool.md)\n\n";
  for (const auto& e : table) std::cout << std::left << std::setw(nw) << e.name << e.title << "\n";
  return 0;
}

}  // namespace mmv::tool
