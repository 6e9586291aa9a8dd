#include "mmvram/harness/closed_forms.hpp"

#include "mmvram/algorithms/iterated_addition.hpp"
#include "mmvram/algorithms/scan.hpp"
#include "mmvram/algorithms/segmented.hpp"
#include "mmvram/algorithms/segmented_baselines.hpp"

#include <utility>

namespace mmv {

namespace {

using cost_fn = cost_prediction (*)(std::int64_t, int);

const std::vector<std::pair<std::string, cost_fn>>& forms() {
  static const std::vector<std::pair<std::string, cost_fn>> all{
      {"matmul-scan", &matmul_scan_predicted_cost},
      {"scd", [](std::int64_t n, int s) { return scd_predicted_cost(n, s); }},
      {"sscr", [](std::int64_t n, int s) { return sscr_predicted_cost(n, s); }},
      {"block-sscr", &block_sscr_predicted_cost},
      {"hillis-steele-scan", &hillis_steele_predicted_cost},
      {"brent-kung-scan", &brent_kung_predicted_cost},
      {"schwartz-segmented-scan", &schwartz_segmented_scan_predicted_cost},
      {"min-index-segmented-scan", &min_index_segmented_scan_predicted_cost},
      {"iterated-addition-scan", &iterated_addition_scan_predicted_cost},
      {"iterated-addition-segmented-scan", &iterated_addition_segmented_scan_predicted_cost}};
  return all;
}

}  // namespace

const std::vector<std::string>& closed_form_algorithms() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& f : forms()) out.push_back(f.first);
    return out;
  }();
  return names;
}

cost_prediction closed_form_cost(const std::string& name, std::int64_t n, int s) {
  for (const auto& [known, f] : forms())
    if (known == name) return f(n, s);
  throw model_error("no closed form in n and s for '" + name + "'");
}

}  // namespace mmv
