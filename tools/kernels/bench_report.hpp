// mmvram kernels bench, its report (bench.cpp measures): one row per kernel, type and
// distribution with its timings, the table printed after the runs, and the JSON file (schema
// mmvram-gpu-bench/1) with each row's bandwidth and its ratios to the copy, the read-only
// ceiling and the baselines.
#pragma once
#include <cmath>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "bench.hpp"
#include "kernels.hpp"
#include "mmvram/gpu/runtime/device.hpp"

namespace mmv::tool::kernels {

// One timed kernel on one input (n items of type, flags of distribution dist).
struct bench_row {
  const kernel_info* k = nullptr;
  dtype type = dtype::f32;
  std::int64_t n = 0;
  std::string dist = "none", dist_family = "none";
  std::int64_t mean = 0, segments = 1;
  double median_ms = NAN, min_ms = NAN, max_ms = NAN;
  // Rivals that take keys or offsets: the same calls with those built from the flags inside the
  // timed region (NAN for every other kernel).
  double prep_median_ms = NAN, prep_min_ms = NAN, prep_max_ms = NAN;
  std::int64_t tiles = 0;  // with --tile-cycles: per-tile clock64 cycles over all tiles and reps
  double tile_cycles_median = NAN, tile_cycles_min = NAN, tile_cycles_p90 = NAN;
  std::string error;
  double gitems() const { return double(n) / (median_ms * 1e-3) / 1e9; }
  // Bandwidth of the bytes this kernel moves, and of the operation's byte floor.
  double gbs() const { return k->bytes(n, segments) / (median_ms * 1e-3) / 1e9; }
  double floor_gbs() const { return bytes_per_item(k->kind) * double(n) / (median_ms * 1e-3) / 1e9; }
};

// How many input sets a run of o on dev rotates among: o.sets, else enough sets of n * 5 bytes
// to exceed 3x its L2 (2..64).
int bench_sets(const bench_options& o, const runtime::device_info& dev);
// run_bench's measurement (bench.cpp): every available kernel of `kernels` over o's dtypes and
// distributions (o.dists, or bench_distributions()) on `sets` rotated input sets, one row per
// kernel and input in run order, a progress line per distribution on os. A kernel that fails is
// a row with its error; throws cuda_error when the inputs cannot be prepared.
std::vector<bench_row> measure_bench(const bench_options& o, const std::vector<const kernel_info*>& kernels, int sets,
                                     std::ostream& os);

// Prints the table of rows (time, throughput, bandwidth against the copy and the read-only
// ceiling, speedups over the baselines; ERROR rows with their message); returns the number
// of rows that failed.
int print_bench_table(std::ostream& os, const std::vector<bench_row>& rows);
// Writes the JSON report of a run of o on dev (sets input sets of set_bytes bytes each) to
// o.out_path; throws io_error (json_file.hpp) when the file cannot be written.
void write_bench_json(const bench_options& o, const runtime::device_info& dev, int sets, double set_bytes,
                      const std::vector<bench_row>& rows);

}  // namespace mmv::tool::kernels
