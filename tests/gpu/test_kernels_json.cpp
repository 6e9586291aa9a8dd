// The JSON of `mmvram kernels` without a GPU: a check result's object keeps the keys and order
// of the mmvram-gpu-check/1 and mmvram-gpu-accuracy/1 schemas (docs/kernels.md#json-schemas),
// and write_json_file writes non-finite numbers as null, stamps the build's commit, and refuses
// a path it cannot write (with the reason) and a FIFO without a reader.
#include "catch.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "build_info.hpp"
#include "check.hpp"
#include "json_file.hpp"

using namespace mmv::tool::kernels;

TEST_CASE("a check result's JSON object has the schema's keys in order") {
  check_result r;
  r.kernel = "sscr_segmented_scan_tc_warp", r.status = "FAIL", r.accuracy_claim = "documented_inaccuracy";
  r.v.bad = 3, r.v.single_bad = 1, r.v.max_error = NAN;
  const json j = result_json(r);
  std::vector<std::string> keys;
  for (const auto& item : j.items()) keys.push_back(item.key());
  const std::vector<std::string> want{
      "kernel", "family", "operation", "dtype", "n", "distribution", "num_segments", "pointer_offset_items",
      "status", "accuracy_claim", "counts_toward_exit", "max_rel_error", "worst_error_over_bound",
      "max_scaled_error", "bits_lost", "single_results", "single_bad_count", "max_single_rel_error",
      "single_bits_lost", "single_over_derived", "beyond_derivation", "bad_count", "segment_bad_count",
      "first_bad_index", "detail"};
  CHECK(keys == want);
  CHECK(j["segment_bad_count"] == 2);
  CHECK(j["beyond_derivation"] == true);  // a V3 fp32 segment beyond the bound
  CHECK(j["dtype"] == "f32");
}

TEST_CASE("write_json_file writes null for non-finite numbers and the commit, and fails on a bad path") {
  const auto path = std::filesystem::temp_directory_path() / "mmvram-kernels-json-test.json";
  json doc;
  doc["schema"] = "mmvram-gpu-check/1", doc["nan"] = NAN, doc["inf"] = INFINITY, doc["x"] = 0.25;
  write_json_file(path.string(), doc);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const std::string commit = mmv::build_commit();
  REQUIRE((commit == "unknown" || commit.size() == 40));
  CHECK(text.str() == "{\n  \"schema\": \"mmvram-gpu-check/1\",\n  \"nan\": null,\n  \"inf\": null,\n  \"x\": 0.25,\n"
                      "  \"commit\": \"" + commit + "\",\n  \"commit_dirty\": " +
                      (mmv::build_dirty() ? "true" : "false") + "\n}\n");
  std::filesystem::remove(path);
  CHECK_THROWS_WITH(write_json_file("/nonexistent-dir/x.json", doc),
                    "cannot write the JSON file '/nonexistent-dir/x.json': No such file or directory");
  // A FIFO without a reader is refused at once, not waited on.
  const auto fifo = std::filesystem::temp_directory_path() / ("mmvram-kernels-json-fifo-" + std::to_string(::getpid()));
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THROWS_WITH(write_json_file(fifo.string(), doc),
                    "cannot write the JSON file '" + fifo.string() +
                        "': it is a pipe (FIFO) with no reader, and mmvram does not wait for one");
  std::filesystem::remove(fifo);
}
