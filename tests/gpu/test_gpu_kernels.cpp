// Each kernel (mmvram's and the baselines) against the CPU reference on a few sizes and
// segment densities, through the same check_case() that `mmvram-gpu check` uses.
#include <cstdint>
#include <string>
#include <vector>

#include "catch.hpp"
#include "check.hpp"
#include "mmvram/gpu/baselines/baselines.hpp"

namespace {

using namespace mmv::gpu::harness;

std::vector<const kernel_info*> kernels_named(const std::string& spec) {
  std::string err;
  auto ks = select_kernels(spec, err);
  REQUIRE(!ks.empty());
  return ks;
}

// Runs every (dtype, n, distribution) combination and requires PASS (SKIPPED is allowed only
// for lack of memory, which these sizes never hit).
void require_pass(const std::string& spec, const std::vector<std::int64_t>& sizes,
                  const std::vector<std::string>& dists, std::int64_t offset = 0) {
  const auto ks = kernels_named(spec);
  std::uint64_t seed = 0x5eedULL;
  for (dtype t : {dtype::f32, dtype::i32})
    for (std::int64_t n : sizes) {
      bool first = true;
      for (const auto& name : dists) {
        const auto d = distribution::parse(name);
        REQUIRE(d.has_value());
        for (const auto& r : check_case(ks, t, n, *d, mix64(++seed), first, offset)) {
          INFO(r.kernel << " " << dtype_name(t) << " n=" << n << " " << r.distribution << " offset " << offset
                        << ": " << r.status << " " << r.detail);
          CHECK(r.status == "PASS");
        }
        first = false;
      }
    }
}

const std::vector<std::int64_t> sizes{1, 33, 4095, 4097, 100003, (1 << 20) + 3};
const std::vector<std::string> dists{"one_segment", "first_flag_0", "geometric:32", "all_length_1",
                                     "fixed:1024", "pareto:1024"};

}  // namespace

TEST_CASE("copy and CUB baselines match the CPU reference", "[baselines]") {
  require_pass("copy,read_only_reduce,cub_inclusive_sum,cub_inclusive_sum_by_key,cub_inclusive_sum_by_key_u8,"
               "cub_flag_pair_scan,cub_segmented_reduce_sum",
               sizes, dists);
}

TEST_CASE("CCCL's DeviceSegmentedScan matches the CPU reference (when built)", "[baselines]") {
  if (!mmv::gpu::baselines::cccl_segmented_scan_available()) {
    WARN("cccl_segmented_scan not checked: built without the CCCL headers of nvidia-cuda-cccl");
    return;
  }
  require_pass("cccl_segmented_scan", sizes, dists);
}

TEST_CASE("CUDA-core segmented scans match the CPU reference", "[baselines]") {
  require_pass("vcu_flag_transform_scan,vcu_min_index_scan", sizes, dists);
}

TEST_CASE("matmul_scan matches the CPU reference", "[ours]") {
  require_pass("matmul_scan", sizes, {"one_segment"});
}

TEST_CASE("sscr_segmented_scan matches the CPU reference", "[ours]") {
  require_pass("sscr_segmented_scan", sizes, dists);
}

TEST_CASE("scd_segmented_sum matches the CPU reference", "[ours]") {
  require_pass("scd_segmented_sum", sizes, dists);
}

TEST_CASE("the tensor-core variants (ablation.hpp) match the CPU reference", "[ours]") {
  require_pass("matmul_scan_tc", sizes, {"one_segment"});
  require_pass("sscr_segmented_scan_tc,scd_segmented_sum_tc", sizes, dists);
}

TEST_CASE("every kernel is right on unaligned pointers (x, flags and out one or three items on)", "[ours]") {
  const std::string spec = mmv::gpu::baselines::cccl_segmented_scan_available() ? "all" : "ours,copy,read_only_reduce,"
      "cub_inclusive_sum,cub_inclusive_sum_by_key,cub_inclusive_sum_by_key_u8,cub_flag_pair_scan,"
      "cub_segmented_reduce_sum,vcu_flag_transform_scan,vcu_min_index_scan";
  for (std::int64_t offset : {1, 3})
    require_pass(spec, {4097, (1 << 20) + 3}, {"one_segment", "geometric:32", "all_length_1", "pareto:1024"}, offset);
}
