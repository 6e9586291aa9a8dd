// The one tolerance policy across languages: the PyTorch op's STATE_PASSING_TOLERANCE
// (python/mmvram_torch/__init__.py, used by the Python tests and experiments) is the C++
// kStatePassingTolerance of harness/tolerance.hpp.
#include "catch.hpp"
#include "mmvram/harness/tolerance.hpp"

#include <fstream>
#include <regex>
#include <sstream>
#include <string>

TEST_CASE("the Python state-passing tolerance is kStatePassingTolerance", "[tolerance]") {
  std::ifstream in(std::string(MMVRAM_SOURCE_DIR) + "/python/mmvram_torch/__init__.py");
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  const std::string s = text.str();
  std::smatch m;
  REQUIRE(std::regex_search(s, m, std::regex(R"(\nSTATE_PASSING_TOLERANCE = ([0-9.eE+-]+)\n)")));
  CHECK(std::stod(m[1].str()) == mmv::kStatePassingTolerance);
}
