// mmvram kernels spmv: CSR SpMV, mmvram's fused spmv_csr against cuSPARSE (default and merge
// algorithms), fp32 and fp64, on generated matrices and Matrix Market files: each result checked
// against the CPU reference first, then timed; GFLOP/s, bytes moved and % of the byte floor.
#pragma once
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace mmv::tool::kernels {

struct spmv_options {
  std::int64_t nnz = std::int64_t{1} << 25;  // the generated matrices' nonzeros, about
  int reps = 50;
  int warmup = 5;
  std::uint64_t seed = 0;
  std::optional<std::vector<std::string>> generated;  // unset: spmv_generated_names()
  std::vector<std::string> files;      // Matrix Market files
  bool f32 = true, f64 = true;
  std::string out_path;
};

// bigbird, power_law, banded, giant_row, empty_rows.
std::vector<std::string> spmv_generated_names();

// Runs, prints the table, writes JSON (schema mmvram-gpu-spmv/2) when out_path is set; returns
// 0, or 1 when a check failed or an implementation threw. Throws model_error on a bad file.
int run_spmv_bench(const spmv_options& o, std::ostream& os);

}  // namespace mmv::tool::kernels
