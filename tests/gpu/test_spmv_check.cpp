// SpMV without a GPU: the merge-path search of spmv_csr's tiles and threads (tile/merge_path.cuh)
// against a walk of the path, and the check (tools/kernels/spmv_run.hpp): the rounding depth,
// the long-double reference on exact cases, and verify_spmv's bound, met just inside and
// missed just outside, for mmvram's kernel (k = spmv_rounding_depth) and a rival (k = L).
#include "catch.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "mmvram/gpu/spmv.hpp"
#include "mmvram/gpu/tile/merge_path.cuh"
#include "mmvram/harness/sparse_inputs.hpp"
#include "spmv_run.hpp"

using namespace mmv::tool::kernels;

TEST_CASE("merge_path_row: the row ends among the first d items of the path, whole and in tiles") {
  mmv::inputs::stream d(3);
  for (int trial = 0; trial < 200; ++trial) {
    const std::int64_t rows = d.integer(0, 60);
    std::vector<std::int64_t> ro{0};
    for (std::int64_t r = 0; r < rows; ++r) ro.push_back(ro.back() + (d.unit() < 0.3 ? 0 : d.integer(0, trial % 2 ? 3 : 90)));
    const std::int64_t nnz = ro.back(), total = rows + nnz;
    std::vector<std::int64_t> walk{0};  // walk[k] = row ends among the first k items
    for (std::int64_t i = 0, j = 0; i + j < total;) {
      if (i < rows && j >= ro[i + 1]) ++i;  // row i's end: all of its entries consumed
      else ++j;
      walk.push_back(i);
    }
    for (std::int64_t k = 0; k <= total; ++k) {
      CAPTURE(trial, rows, nnz, k);
      REQUIRE(mmv::gpu::tile::merge_path_row(ro.data() + 1, rows, 0, nnz, k) == walk[k]);
      // A tile starting at diagonal k0 searches its own row ends from nonzero j0 = k0 - walk[k0].
      const std::int64_t k0 = k / 2, i0 = walk[k0], j0 = k0 - i0;
      CHECK(mmv::gpu::tile::merge_path_row(ro.data() + 1 + i0, walk[k] - i0, j0, (k - walk[k]) - j0, k - k0) ==
            walk[k] - i0);
      // The tile's own search (agent/spmv.cuh): 32-bit, row ends relative to j0.
      std::vector<int> rel;
      for (std::int64_t r = i0; r < walk[k]; ++r) rel.push_back(int(ro[r + 1] - j0));
      CHECK(mmv::gpu::tile::merge_path_row32(rel.data(), int(walk[k] - i0), int((k - walk[k]) - j0), int(k - k0)) ==
            walk[k] - i0);
    }
  }
}

TEST_CASE("spmv_rounding_depth: the row length for short rows, the tile's depth plus the fix-up's for long ones") {
  CHECK(mmv::gpu::spmv_rounding_depth(0) == 0);
  for (std::int64_t len = 1; len <= 29; ++len) CHECK(mmv::gpu::spmv_rounding_depth(len) == len);
  CHECK(mmv::gpu::spmv_rounding_depth(30) == 30);  // max(37 + 1, 29 + 1) > 30: the length
  CHECK(mmv::gpu::spmv_rounding_depth(39) == 38);  // fp32's 15-item runs: 37 + 1
  // 10^6 entries: fp32 261 carries (block-wide: 2 a thread, max(8 + 5, 2 + 8) = 13), 15 + 17 + 13 = 45;
  // fp64 435 carries (max(8 + 5, 2 + 8) = 13), 9 + 17 + 13 = 39.
  CHECK(mmv::gpu::spmv_rounding_depth(1000000) == 45);
  CHECK(mmv::gpu::spmv_rounding_depth(3840 * 256 - 1) == 15 + 17 + 13);  // fp32 256 carries, one warp: 8 + 5
  // fp32 4097 carries: 17 a thread + 8, 57; fp64 6827 carries: 27 + 8, 61.
  CHECK(mmv::gpu::spmv_rounding_depth(3840 * 4096) == 9 + 17 + 35);
  std::int64_t prev = 0;
  for (std::int64_t len = 1; len < (std::int64_t(1) << 40); len = len * 3 + 1) {
    const std::int64_t k = mmv::gpu::spmv_rounding_depth(len);
    CHECK(k <= len);
    CHECK(k >= prev);
    prev = k;
  }
}

// Temporary storage of tiles tiles: the path coordinates (index_bytes each, tiles + 1, rounded up
// to 256 bytes), the fp32 carries and 256 bytes.
std::size_t temp_of(std::int64_t tiles, std::size_t index_bytes) {
  return (std::size_t(tiles + 1) * index_bytes + 255) / 256 * 256 + std::size_t(tiles) * 4 + 256;
}

TEST_CASE("spmv_csr: int32 path coordinates below 2^31 - 3840 path items, int64 from there (no device)") {
  const std::int64_t edge = (std::int64_t(1) << 31) - 3840;  // rows + nnz + the fp32 tile < 2^31
  for (const std::int64_t total : {std::int64_t(3840), edge - 1, edge, std::int64_t(1) << 33}) {
    const std::int64_t rows = total / 3, nnz = total - rows, tiles = (total + 3839) / 3840;
    std::size_t b32 = 0, b64 = 0;
    mmv::gpu::spmv_csr(static_cast<const std::int32_t*>(nullptr), nullptr, static_cast<const float*>(nullptr), nullptr,
                       nullptr, rows, nnz, nullptr, b32);
    mmv::gpu::spmv_csr(static_cast<const std::int64_t*>(nullptr), nullptr, static_cast<const float*>(nullptr), nullptr,
                       nullptr, rows, nnz, nullptr, b64);
    CAPTURE(total);
    CHECK(b32 == temp_of(tiles, total < edge ? 4 : 8));
    CHECK(b64 == b32);  // the offsets' type does not choose the index type
  }
}

TEST_CASE("spmv_reference_of: exact sums, absolute sums and lengths, values rounded to T") {
  mmv::csr_matrix a;
  a.rows = 3, a.cols = 2;
  a.row_ptr = {0, 2, 2, 4};
  a.col_idx = {0, 1, 0, 1};
  a.values = {1, 2, 0.1, -3};
  const std::vector<double> x{0.5, 0.25};
  const auto r = spmv_reference_of<float>(a, x);
  CHECK(r.y == std::vector<long double>{1.0L, 0.0L, (long double)(0.1f) * 0.5L - 0.75L});
  CHECK(r.abs_sum == std::vector<long double>{1.0L, 0.0L, (long double)(0.1f) * 0.5L + 0.75L});
  CHECK(r.length == std::vector<std::int64_t>{2, 0, 2});
  CHECK(spmv_reference_of<double>(a, x).y[2] == static_cast<long double>(0.1) * 0.5L - 0.75L);
}

TEST_CASE("verify_spmv: inside the bound passes, outside fails, NaN fails") {
  mmv::inputs::stream d(7);
  const auto a = mmv::matrix_of_row_lengths({1000, 3, 0, 1000}, 5000, d);
  const auto x = spmv_x(a.cols, 11);
  const auto ref = spmv_reference_of<float>(a, x);
  const double u = 0x1p-24;
  const auto bound = [&](std::size_t r, double k) {  // the bound spmv_run.hpp states
    const double len = double(ref.length[r]);
    return (k * u / (1 - k * u) + len * 0x1p-64 / (1 - len * 0x1p-64)) * ref.abs_sum[r] +
           len * std::numeric_limits<float>::denorm_min();
  };
  const auto shifted = [&](std::size_t r, double delta) {
    std::vector<float> y(ref.y.begin(), ref.y.end());
    y[r] = float(ref.y[r] + delta);
    return y;
  };
  CHECK(verify_spmv(std::vector<float>(ref.y.begin(), ref.y.end()), ref, spmv_impl::ours).pass);
  const double ours = bound(3, double(mmv::gpu::spmv_rounding_depth(1000))), rival = bound(3, 1000);
  REQUIRE(ours > 1e3 * std::abs(ref.y[3]) * 0x1p-24);  // the shifts below survive rounding to float
  CHECK(verify_spmv(shifted(3, 0.9 * ours), ref, spmv_impl::ours).pass);
  const auto v = verify_spmv(shifted(3, -1.1 * ours), ref, spmv_impl::ours);
  CHECK_FALSE(v.pass);
  CHECK(v.bad_rows == 1);
  CHECK(v.worst_row == 3);
  CHECK(verify_spmv(shifted(3, 2 * ours), ref, spmv_impl::cusparse_default).pass);  // a rival: k = L
  CHECK_FALSE(verify_spmv(shifted(3, 1.1 * rival), ref, spmv_impl::cusparse_merge).pass);
  CHECK_FALSE(verify_spmv(shifted(2, 1e-30), ref, spmv_impl::ours).pass);  // an empty row must be 0
  CHECK_FALSE(verify_spmv(shifted(1, NAN), ref, spmv_impl::ours).pass);
}

TEST_CASE("verify_spmv: a row with k u >= 1 is not bounded: counted, held to finiteness only") {
  spmv_reference ref;
  const std::int64_t len = std::int64_t(1) << 24;  // a rival's k = L: L u = 1 in fp32
  ref.y = {1.0L, 1.0L}, ref.abs_sum = {1.0L, 1.0L}, ref.length = {len, 1};
  auto v = verify_spmv(std::vector<float>{100.0f, 1.0f}, ref, spmv_impl::cusparse_default);
  CHECK(v.pass);
  CHECK(v.unbounded_rows == 1);
  CHECK_FALSE(verify_spmv(std::vector<float>{NAN, 1.0f}, ref, spmv_impl::cusparse_default).pass);
  CHECK_FALSE(verify_spmv(std::vector<float>{INFINITY, 1.0f}, ref, spmv_impl::cusparse_default).pass);
  ref.abs_sum = {0.0L, 1.0L};  // an all-zero row: still not bounded (no inf * 0 = nan bound)
  CHECK(verify_spmv(std::vector<float>{0.0f, 1.0f}, ref, spmv_impl::cusparse_default).unbounded_rows == 1);
  CHECK_FALSE(verify_spmv(std::vector<float>{-INFINITY, 1.0f}, ref, spmv_impl::cusparse_default).pass);
  ref.abs_sum = {1.0L, 1.0L};
  // Ours at the same length keeps a bound (k = spmv_rounding_depth(L) is small).
  v = verify_spmv(std::vector<float>{100.0f, 1.0f}, ref, spmv_impl::ours);
  CHECK_FALSE(v.pass);
  CHECK(v.unbounded_rows == 0);
  // Just below k u = 1 a rival still has a (loose) bound: 2^24 - 2^20 entries, gamma = 15.
  ref.length = {len - (std::int64_t(1) << 20), 1};
  CHECK(verify_spmv(std::vector<float>{15.0f, 1.0f}, ref, spmv_impl::cusparse_default).pass);
  CHECK_FALSE(verify_spmv(std::vector<float>{17.5f, 1.0f}, ref, spmv_impl::cusparse_default).pass);
}

// The reference is kept in long double: a row of one fp64 product p, rounded once on the device
// (fl53(p)), passes against fl64(p). Rounding the reference to double as well (fl53(fl64(p)), a
// double rounding) can land one ulp from fl53(p), beyond gamma_1(2^-53)|p|: the fp64 failure of
// rows of length 1 that this guards against.
TEST_CASE("verify_spmv: a one-entry fp64 row rounded once passes against the long-double reference") {
  mmv::inputs::stream d(99);
  int found = 0;
  for (int i = 0; i < 200000 && found < 20; ++i) {
    const double v = 2 * d.unit() - 1, w = 2 * d.unit() - 1;
    const volatile double p = v * w;  // fl53(v w), as the device's DMUL
    if (static_cast<double>(static_cast<long double>(v) * w) == p) continue;  // no double rounding here
    ++found;
    mmv::csr_matrix a;
    a.rows = 1, a.cols = 1, a.row_ptr = {0, 1}, a.col_idx = {0}, a.values = {v};
    const auto ref = spmv_reference_of<double>(a, {w});
    CHECK(verify_spmv(std::vector<double>{p}, ref, spmv_impl::ours).pass);
    CHECK(verify_spmv(std::vector<double>{p}, ref, spmv_impl::cusparse_default).pass);
  }
  CHECK(found > 0);
}
