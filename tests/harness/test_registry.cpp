// Every registry entry's facts are complete and consistent (registry.hpp): a unique name that
// find_algorithm finds, the list's texts, a runner and a predictor, a closed form or the reason
// it has none, a word width rule exactly for integer mode, an iterated-addition block exactly
// for the VCU+iadd algorithms, and fused GPU kernel names unique across the table that the GPU
// sources (gpu/, tools/) name.
#include "catch.hpp"

#include "mmvram/harness/registry.hpp"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace {

// Whether some C++ or CUDA source under `dir` of the source tree holds `text`.
bool sources_hold(const std::string& dir, const std::string& text) {
  for (const auto& f : std::filesystem::recursive_directory_iterator(std::string(MMVRAM_SOURCE_DIR) + "/" + dir)) {
    const std::string ext = f.path().extension().string();
    if (ext != ".cpp" && ext != ".hpp" && ext != ".cu" && ext != ".cuh") continue;
    std::ifstream in(f.path());
    std::stringstream body;
    body << in.rdbuf();
    if (body.str().find(text) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("every registry entry holds all its facts") {
  std::set<std::string> names;
  for (const auto& e : mmv::algorithm_table()) {
    CAPTURE(e.name);
    CHECK(names.insert(e.name).second);
    CHECK(&mmv::find_algorithm(e.name) == &e);
    for (const auto* text : {&e.title, &e.units, &e.step_bound, &e.work_bound, &e.min_word_bits}) CHECK(!text->empty());
    CHECK((e.integer_ok || e.float_ok));
    CHECK(e.run);
    CHECK(e.predicted);
    CHECK((e.closed_form == nullptr) != e.no_closed_form.empty());
    CHECK(static_cast<bool>(e.word_bits) == e.integer_ok);
    CHECK(static_cast<bool>(e.iterated_addition_limit) == (e.units == "VCU+iadd"));
    if (e.breaks_down) CHECK(e.min_word_bits.find("fails once") != std::string::npos);
  }
  CHECK_THROWS_AS(mmv::find_algorithm("no-such-algorithm"), mmv::model_error);
  CHECK_THROWS_AS(mmv::min_word_bits(mmv::find_algorithm("state-passing"), {}, 4), mmv::model_error);
}

TEST_CASE("fused kernel names are unique and named by the GPU sources") {
  std::set<std::string> kernels;
  for (const auto& e : mmv::algorithm_table())
    for (const auto& k : e.fused_kernels) {
      CAPTURE(e.name, k);
      CHECK(!k.empty());
      CHECK(kernels.insert(k).second);
      CHECK(e.cuda_backend);
      CHECK((sources_hold("gpu", "\"" + k + "\"") || sources_hold("tools", "\"" + k + "\"")));
    }
  for (const char* name : {"matmul-scan", "sscr", "scd", "state-passing"}) {
    CAPTURE(name);
    CHECK(!mmv::find_algorithm(name).fused_kernels.empty());
  }
}
