// The tuning table of the fused kernels without a device (mmvram/gpu/tuning.hpp): every stored
// sweep (experiments/results/gpu_tuning_*.json) swept this build's candidates, its choice is
// recomputed from its rows (the least geometric mean, if 1% faster than candidate 0's), and the
// table gives its device that choice;
// devices not in the table, and a tuned name on another architecture, get candidate 0.
#include "catch.hpp"

#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "json_file.hpp"
#include "mmvram/gpu/tuning.hpp"
#include "tune.hpp"

namespace tuning = mmv::gpu::tuning;
using mmv::tool::kernels::json;

namespace {

std::vector<std::filesystem::path> stored_sweeps() {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(MMVRAM_SOURCE_DIR "/experiments/results")) {
    const std::string name = e.path().filename().string();
    if (name.rfind("gpu_tuning_", 0) == 0 && e.path().extension() == ".json") out.push_back(e.path());
  }
  return out;
}

}  // namespace

TEST_CASE("the candidates: index 0 is the untuned policy, tiles are whole passes") {
  for (auto k : tuning::kKernels) {
    INFO(tuning::kernel_name(k));
    const auto& c = tuning::candidates(k);
    CHECK(c[0].passes == 4);
    CHECK(c[0].stages == 1);
    CHECK(c[0].min_blocks == (k == tuning::kernel::matmul_scan ? 3 : 2));
    for (const auto& p : c) CHECK(p.tile_items() == 4096 * p.passes);
  }
}

TEST_CASE("devices not in the table run candidate 0") {
  for (auto k : tuning::kKernels) {
    CHECK(tuning::choose(k, {"NVIDIA A100-SXM4-80GB", 8, 0}) == 0);
    CHECK(tuning::choose(k, {"", 0, 0}) == 0);
    CHECK(tuning::choose(k, {"NVIDIA H100 80GB HBM3", 10, 0}) == 0);  // the name on another architecture
    CHECK(tuning::choose(k, {"NVIDIA H100 80GB HBM", 9, 0}) == 0);    // names match whole
  }
}

TEST_CASE("the choice is the least geometric mean over a candidate's rows, if 1% faster than candidate 0's") {
  using mmv::tool::kernels::tune_choice;
  std::uint64_t state = 0x7a11e5ULL;
  const auto uniform = [&] {  // in [0.3, 1.5): times of a few ms
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return 0.3 + 1.2 * double(state >> 11) / double(1ULL << 53);
  };
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<std::vector<double>> times(3, std::vector<double>(8));
    std::array<double, 3> product{1, 1, 1};
    int least = 0;
    for (int c = 0; c < 3; ++c) {
      for (double& t : times[c]) product[c] *= (t = uniform());
      if (product[c] < product[least]) least = c;
    }
    // Geometric means: the 8th root of the products.
    const bool gain = std::pow(product[0] / product[least], 1.0 / 8) >= 1 + mmv::tool::kernels::kTuneMinGain;
    CHECK(tune_choice(times) == (gain ? least : 0));
  }
  CHECK(tune_choice({{1.0, 4.0}, {2.2, 2.2}}) == 0);  // geometric means 2 and 2.2 (arithmetic: 2.5 and 2.2)
  CHECK(tune_choice({{2.2, 2.2}, {1.0, 4.0}}) == 1);  // 2.2 against 2: 10% faster
  // The margin: 1% faster replaces candidate 0, 0.5% does not, and the least still wins among
  // the others.
  CHECK(tune_choice({{1.0}, {1.0 / 1.011}, {1.0 / 1.02}}) == 2);
  CHECK(tune_choice({{1.0}, {1.0 / 1.005}}) == 0);
  CHECK(tune_choice({{1.0}, {1.0 / 1.011}}) == 1);
  CHECK(tune_choice({{1.0}, {1.001}, {1.0 / 1.005}}) == 0);
  CHECK(tune_choice({}) == -1);
  CHECK(tune_choice({{1.0}, {}}) == -1);
  CHECK(tune_choice({{1.0}, {NAN}}) == -1);
}

TEST_CASE("every stored sweep tuned this build's candidates, and the table gives its device the sweep's choice") {
  const auto sweeps = stored_sweeps();
  REQUIRE(!sweeps.empty());
  for (const auto& path : sweeps) {
    INFO(path.filename().string());
    std::ifstream in(path);
    const json j = json::parse(in);
    CHECK(j["schema"] == "mmvram-gpu-tune/1");
    const tuning::device_key key{j["gpu"]["name"].get<std::string>(), j["gpu"]["cc_major"].get<int>(),
                                 j["gpu"]["cc_minor"].get<int>()};
    for (auto k : tuning::kKernels) {
      const std::string name = tuning::kernel_name(k);
      INFO(name);
      const auto& c = tuning::candidates(k);
      REQUIRE(j["candidates"][name].size() == c.size());
      for (std::size_t i = 0; i < c.size(); ++i) {
        const json& p = j["candidates"][name][i];
        CHECK(p["passes"] == c[i].passes);
        CHECK(p["stages"] == c[i].stages);
        CHECK(p["min_blocks"] == c[i].min_blocks);
      }
      // Recompute the choice from the rows: per candidate, its times in row order.
      std::vector<std::vector<double>> times(c.size());
      for (const json& r : j["rows"])
        if (r["kernel"] == name) times[r["candidate"].get<std::size_t>()].push_back(r["time_ms"].get<double>());
      for (const auto& t : times) CHECK(t.size() == times[0].size());
      const int best = mmv::tool::kernels::tune_choice(times);
      CHECK(best == j["choice"][name]["candidate"].get<int>());
      CHECK(tuning::choose(k, key) == best);
    }
  }
}
