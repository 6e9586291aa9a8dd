// CSR SpMV on the GPU: mmvram's fused spmv_csr (int32 and int64 row offsets) and cuSPARSE's two
// CSR algorithms against the CPU reference within the derived bound (spmv_run.hpp), fp32 and
// fp64, on matrices of every generator and the edge cases (empty, 1×1, all rows empty, one row
// holding everything, a row whose carries the whole fix-up block sums, more tiles than fit on
// the device at once, lengths that miss the tile size, unaligned values and x); and the same
// bits from either offset type.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "catch.hpp"
#include "mmvram/gpu/spmv.hpp"
#include "mmvram/harness/sparse_inputs.hpp"
#include "spmv_run.hpp"

namespace {

using namespace mmv::tool::kernels;

struct named_matrix {
  std::string name;
  mmv::csr_matrix a;
};

mmv::csr_matrix of_lengths(const std::vector<std::int64_t>& lengths, std::int64_t cols, std::uint64_t seed) {
  mmv::inputs::stream d(seed);
  return mmv::matrix_of_row_lengths(lengths, cols, d);
}

std::vector<named_matrix> matrices(std::uint64_t seed) {
  std::vector<named_matrix> v;
  v.push_back({"empty 0x0", of_lengths({}, 1, seed)});
  v.back().a.cols = 0;
  v.push_back({"1x1", of_lengths({1}, 1, seed)});
  v.push_back({"1x1 empty row", of_lengths({0}, 1, seed)});
  v.push_back({"all rows empty", of_lengths(std::vector<std::int64_t>(5000, 0), 70, seed)});
  std::vector<std::int64_t> one(3001, 0);
  one[1234] = 150001;  // one row spanning ~84 tiles
  v.push_back({"one row holds everything", of_lengths(one, 4096, seed)});
  std::vector<std::int64_t> first(40, 3);
  first[0] = 9000;  // the first row spans the first tiles, then short rows
  v.push_back({"long first row", of_lengths(first, 500, seed)});
  std::vector<std::int64_t> sparse_rows(200000, 0);
  mmv::inputs::stream d(seed);
  for (auto& l : sparse_rows) l = d.unit() < 0.1 ? d.integer(1, 60) : 0;
  v.push_back({"many empty rows", of_lengths(sparse_rows, 10000, seed)});
  std::vector<std::int64_t> odd(1791);  // rows + nnz not a multiple of the fp64 tile (2304 items)
  for (std::size_t i = 0; i < odd.size(); ++i) odd[i] = std::int64_t(i % 7);
  v.push_back({"lengths 0..6", of_lengths(odd, 333, seed)});
  std::vector<std::int64_t> odd32(3839);  // nor of the fp32 tile (3840 items)
  for (std::size_t i = 0; i < odd32.size(); ++i) odd32[i] = std::int64_t(i % 9);
  v.push_back({"lengths 0..8", of_lengths(odd32, 777, seed)});
  std::vector<std::int64_t> giant(1000, 4);
  giant[500] = 1200000;  // 313 fp32 and 521 fp64 carries: more than kLongRun, the block-wide fix-up
  v.push_back({"giant row", of_lengths(giant, 100000, seed)});
  std::vector<std::int64_t> wide(200000);
  for (auto& l : wide) l = d.integer(0, 40);
  wide[123456] = 1200000;  // ~5.2 M path items: more tiles than an H100 or H200 holds at once (three launches)
  v.push_back({"past one wave", of_lengths(wide, 300000, seed)});
  v.push_back({"power law", mmv::power_law_matrix(30000, 20000, 24, 1.5, seed)});
  v.push_back({"banded", mmv::banded_matrix(20011, 7, seed)});
  v.push_back({"bigbird", mmv::bigbird_matrix(2048, 32, 2, 3, 1, seed)});
  return v;
}

template <class T>
void check_all(std::uint64_t seed) {
  for (const auto& [name, a] : matrices(seed)) {
    const auto x = spmv_x(a.cols, seed + 7);
    const auto ref = spmv_reference_of<T>(a, x);
    for (const std::size_t offset : {std::size_t(0), std::size_t(1), std::size_t(3)}) {
      const auto m = upload_spmv<T>(a, x, offset);
      for (const spmv_impl k : spmv_impls()) {
        if (!is_ours(k) && (a.rows == 0 || a.nonzeros() == 0 || offset != 0)) continue;
        INFO(spmv_impl_name(k) << " " << (sizeof(T) == 4 ? "fp32" : "fp64") << " " << name << " (" << a.rows << "x"
                               << a.cols << ", nnz " << a.nonzeros() << ") offset " << offset << ", seed " << seed);
        const spmv_verdict v = check_spmv(k, m, ref);
        INFO(v.detail);
        CHECK(v.pass);
      }
    }
  }
}

}  // namespace

TEST_CASE("spmv_csr fp32 and cuSPARSE against the CPU reference", "[spmv]") {
  check_all<float>(0x5eed5ULL);
  check_all<float>(0x1234ULL);
}

TEST_CASE("spmv_csr fp64 and cuSPARSE against the CPU reference", "[spmv]") { check_all<double>(0x5eed6ULL); }

template <class T>
std::vector<T> y_of(spmv_impl k, const device_spmv<T>& m) {
  make_spmv_runner(k, m)->run();
  std::vector<T> y(static_cast<std::size_t>(m.rows));
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  REQUIRE(cudaMemcpy(y.data(), m.y(), y.size() * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess);
  return y;
}

template <class T>
void same_bits(std::uint64_t seed) {
  for (const auto& [name, a] : matrices(seed)) {
    if (a.rows == 0) continue;
    const auto m = upload_spmv<T>(a, spmv_x(a.cols, seed), 0);
    const auto y32 = y_of(spmv_impl::ours, m), y64 = y_of(spmv_impl::ours_i64, m);
    INFO(name << (sizeof(T) == 4 ? " fp32" : " fp64"));
    CHECK(std::memcmp(y32.data(), y64.data(), y32.size() * sizeof(T)) == 0);
  }
}

TEST_CASE("spmv_csr: int32 and int64 row offsets give the same bits", "[spmv]") {
  same_bits<float>(0x0ff5e7ULL);
  same_bits<double>(0x0ff5e8ULL);
}
