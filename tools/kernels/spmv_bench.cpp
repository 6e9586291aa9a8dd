// mmvram kernels spmv (spmv_bench.hpp): the matrices, the copy bandwidth, then per matrix and
// type the check and the timing of each implementation, the table and the JSON.
#include "spmv_bench.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <memory>

#include "json_file.hpp"
#include "kernel_inputs.hpp"
#include "mmvram/gpu/baselines/baselines.hpp"
#include "mmvram/gpu/runtime/device.hpp"
#include "mmvram/gpu/runtime/stream.hpp"
#include "mmvram/harness/sparse_inputs.hpp"
#include "spmv_run.hpp"
#include "timing.hpp"

namespace mmv::tool::kernels {
namespace {

struct bench_matrix {
  std::string name, source;
  csr_matrix a;
};

// The generated matrix `name` with about `nnz` nonzeros (bench_matrix.source describes it).
bench_matrix generate(const std::string& name, std::int64_t nnz, std::uint64_t seed) {
  const std::int64_t n = std::max<std::int64_t>(nnz / 32, 64);
  inputs::stream d(mix64(seed ^ 0x73706d76ULL));
  if (name == "bigbird") {  // block 64, 3 random, window 3, 2 global blocks: ~ (8 n + 128 n) / n per row
    const std::int64_t rows = std::max<std::int64_t>(nnz / (8 * 64 + 128) / 64 * 64, 256);
    return {name, "bigbird_matrix(" + std::to_string(rows) + ", block 64, r 3, w 3, g 2)",
            bigbird_matrix(rows, 64, 3, 3, 2, seed)};
  }
  if (name == "power_law")
    return {name, "power_law_matrix(" + std::to_string(n) + "^2, mean 32, alpha 1.5)",
            power_law_matrix(n, n, 32, 1.5, seed)};
  if (name == "banded") return {name, "banded_matrix(" + std::to_string(n) + ", half-width 16)", banded_matrix(n, 16, seed)};
  if (name == "giant_row") {  // half the nonzeros in the middle row, the rest 4 per row
    std::vector<std::int64_t> len(static_cast<std::size_t>(n / 8), 4);
    len[len.size() / 2] = nnz / 2;
    return {name, std::to_string(len.size()) + " rows of 4, the middle one " + std::to_string(nnz / 2),
            matrix_of_row_lengths(len, static_cast<std::int64_t>(len.size()), d)};
  }
  if (name == "empty_rows") {  // 90% of the rows empty, the others uniform in 1..63 (mean 32)
    std::vector<std::int64_t> len(static_cast<std::size_t>(n * 10));
    for (auto& l : len) l = d.unit() < 0.1 ? d.integer(1, 63) : 0;
    return {name, std::to_string(len.size()) + " rows, 90% empty, the others 1..63",
            matrix_of_row_lengths(len, n, d)};
  }
  throw model_error("unknown matrix '" + name + "' (" + "bigbird, power_law, banded, giant_row, empty_rows)");
}

bench_matrix read_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw model_error("cannot read the Matrix Market file '" + path + "'");
  std::string base = path.substr(path.find_last_of('/') + 1);
  return {base, path, read_matrix_market(in)};
}

// Copy bandwidth (bytes read + written per second) of baselines::device_copy on 1 GiB.
double copy_bandwidth(int warmup, int reps) {
  const std::size_t bytes = std::size_t(1) << 30;
  runtime::device_buffer a(bytes), b(bytes);
  runtime::check(cudaMemset(a.get(), 1, bytes), "cudaMemset");
  std::vector<double> ms;
  for (int i = 0; i < warmup + reps; ++i) {
    runtime::event_timer t;
    t.start(nullptr);
    baselines::device_copy(a.get(), b.get(), bytes);
    t.stop(nullptr);
    const double e = t.elapsed_ms();
    if (i >= warmup) ms.push_back(e);
  }
  return 2.0 * double(bytes) / (median(ms) * 1e-3);
}

struct timing {
  double median_ms = 0, min_ms = 0, max_ms = 0;
};

timing time_runner(spmv_runner& r, int warmup, int reps) {
  for (int i = 0; i < warmup; ++i) r.run();
  runtime::check(cudaDeviceSynchronize(), "spmv warm-up");
  const auto timers = std::make_unique<runtime::event_timer[]>(static_cast<std::size_t>(reps));
  for (int i = 0; i < reps; ++i) {
    timers[i].start(nullptr);
    r.run();
    timers[i].stop(nullptr);
  }
  runtime::check(cudaDeviceSynchronize(), "spmv timing");
  std::vector<double> ms(static_cast<std::size_t>(reps));
  for (int i = 0; i < reps; ++i) ms[i] = timers[i].elapsed_ms();
  return {median(ms), *std::min_element(ms.begin(), ms.end()), *std::max_element(ms.begin(), ms.end())};
}

// The compulsory bytes of one product (the floor): values, column indices (int32), row offsets
// in the implementation's own index type (4 B, 8 B for mmvram_spmv_csr_i64 or where int32 does
// not fit), x once and y once.
// The per-nonzero gathers of x are not compulsory (a cache may serve them): x_gathers_bytes, apart.
json bytes_json(const csr_matrix& a, std::size_t value_size, std::size_t offset_size) {
  const double nnz = double(a.nonzeros()), rows = double(a.rows);
  json b;
  b["values"] = nnz * double(value_size), b["col_indices"] = nnz * 4, b["row_offsets"] = (rows + 1) * double(offset_size);
  b["x"] = double(a.cols) * double(value_size), b["y"] = rows * double(value_size);
  double total = 0;
  for (const auto& [k, v] : b.items()) total += v.get<double>();
  b["total"] = total;
  return b;
}

template <class T>
json run_type(const bench_matrix& m, const std::vector<double>& x, const spmv_options& o, double copy_bps,
              std::ostream& os, int& failures) {
  const char* type = sizeof(T) == 4 ? "f32" : "f64";
  const auto ref = spmv_reference_of<T>(m.a, x);
  const auto dm = upload_spmv<T>(m.a, x);
  json rows = json::array();
  for (const spmv_impl k : spmv_impls()) {
    json r;
    r["kernel"] = spmv_impl_name(k), r["dtype"] = type;
    char line[256];
    try {
      const spmv_verdict v = check_spmv(k, dm, ref);
      r["check"] = {{"pass", v.pass}, {"rows_beyond_bound", v.bad_rows}, {"max_error_over_bound", v.worst_ratio},
                    {"rows_not_bounded", v.unbounded_rows},
                    {"detail", v.detail}};
      if (!v.pass) {
        ++failures;
        std::snprintf(line, sizeof line, "  %-18s %-4s FAIL: %s\n", spmv_impl_name(k), type, v.detail.c_str());
        os << line;
        rows.push_back(r);
        continue;
      }
      auto runner = make_spmv_runner(k, dm);
      const timing t = time_runner(*runner, o.warmup, o.reps);
      const bool wide = k == spmv_impl::ours_i64 || !dm.cusparse_ok();
      const json bytes = bytes_json(m.a, sizeof(T), wide ? 8 : 4);
      r["row_offset_bytes"] = wide ? 8 : 4;
      const double total = bytes["total"].get<double>(), floor_ms = total / copy_bps * 1e3;
      r["temp_bytes"] = runner->temp_bytes(), r["preprocessed"] = runner->preprocessed();
      r["median_ms"] = t.median_ms, r["min_ms"] = t.min_ms, r["max_ms"] = t.max_ms;
      r["gflops"] = 2.0 * double(m.a.nonzeros()) / (t.median_ms * 1e6);
      r["bytes"] = bytes, r["x_gathers_bytes"] = double(m.a.nonzeros()) * double(sizeof(T));
      r["gbs"] = total / (t.median_ms * 1e6);
      r["byte_floor_ms"] = floor_ms, r["percent_of_floor"] = 100.0 * floor_ms / t.median_ms;
      std::snprintf(line, sizeof line, "  %-18s %-4s %9.4f ms %8.1f GFLOP/s %7.0f GB/s %5.0f%% of floor  err/bound %.2g\n",
                    spmv_impl_name(k), type, t.median_ms, r["gflops"].get<double>(), r["gbs"].get<double>(),
                    r["percent_of_floor"].get<double>(), v.worst_ratio);
      os << line;
    } catch (const cuda_error& e) {
      runtime::throw_if_context_lost(spmv_impl_name(k));
      ++failures;
      r["error"] = e.what();
      os << "  " << spmv_impl_name(k) << " " << type << " ERROR: " << e.what() << '\n';
    }
    rows.push_back(r);
  }
  return rows;
}

}  // namespace

std::vector<std::string> spmv_generated_names() { return {"bigbird", "power_law", "banded", "giant_row", "empty_rows"}; }

int run_spmv_bench(const spmv_options& o, std::ostream& os) {
  const runtime::device_info dev = runtime::require_device();
  const double copy_bps = copy_bandwidth(o.warmup, std::max(o.reps / 5, 5));
  os << "mmvram kernels spmv on " << dev.name << " (" << dev.sm_count << " SMs, L2 " << (dev.l2_bytes >> 20)
     << " MiB), copy " << copy_bps * 1e-9 << " GB/s, " << o.reps << " reps after " << o.warmup << " warm-up, seed "
     << o.seed << '\n';
  int failures = 0;
  json matrices = json::array();
  std::vector<std::string> sources = o.generated ? *o.generated : spmv_generated_names();
  for (const auto& f : o.files) sources.push_back("file:" + f);
  for (const auto& s : sources) {
    const bench_matrix m = s.rfind("file:", 0) == 0 ? read_file(s.substr(5)) : generate(s, o.nnz, o.seed);
    const std::vector<double> x = spmv_x(m.a.cols, o.seed);
    std::int64_t empty = 0, longest = 0;
    for (std::int64_t r = 0; r < m.a.rows; ++r) {
      const std::int64_t len = m.a.row_ptr[r + 1] - m.a.row_ptr[r];
      empty += len == 0, longest = std::max(longest, len);
    }
    os << m.name << ": " << m.a.rows << " x " << m.a.cols << ", nnz " << m.a.nonzeros() << ", longest row " << longest
       << ", " << empty << " empty rows (" << m.source << ")\n";
    json j;
    j["name"] = m.name, j["source"] = m.source, j["rows"] = m.a.rows, j["cols"] = m.a.cols, j["nnz"] = m.a.nonzeros();
    j["empty_rows"] = empty, j["longest_row"] = longest;
    j["mean_row_length"] = m.a.rows ? double(m.a.nonzeros()) / double(m.a.rows) : 0.0;
    json results = json::array();
    if (o.f32)
      for (auto& r : run_type<float>(m, x, o, copy_bps, os, failures)) results.push_back(r);
    if (o.f64)
      for (auto& r : run_type<double>(m, x, o, copy_bps, os, failures)) results.push_back(r);
    j["results"] = std::move(results);
    matrices.push_back(std::move(j));
  }
  if (!o.out_path.empty()) {
    json doc;
    doc["schema"] = "mmvram-gpu-spmv/2";
    doc["date_utc"] = utc_now();
    doc["gpu"] = {{"name", dev.name},
                  {"sm_count", dev.sm_count},
                  {"compute_capability", std::to_string(dev.cc_major) + "." + std::to_string(dev.cc_minor)},
                  {"l2_bytes", static_cast<std::uint64_t>(dev.l2_bytes)},
                  {"memory_bytes", static_cast<std::uint64_t>(dev.memory_bytes)}};
    doc["cuda_runtime_version"] = runtime::cuda_version_string(dev.runtime_version);
    doc["cuda_driver_version"] = runtime::cuda_version_string(dev.driver_version);
    doc["seed"] = o.seed, doc["reps"] = o.reps, doc["warmup"] = o.warmup, doc["generated_nnz"] = o.nnz;
    doc["copy_bytes_per_s"] = copy_bps;
    doc["timing"] = "CUDA events around each call; median over reps; set-up (temporary storage, cuSPARSE "
                    "handle, buffer size query, buffer and cusparseSpMV_preprocess) outside the timed region";
    doc["bytes_note"] = "bytes = the compulsory traffic: values + col_indices (int32) + row_offsets (each "
                        "implementation's own index type, row_offset_bytes: int32, int64 for mmvram_spmv_csr_i64) "
                        "+ x once + y once; "
                        "byte floor = bytes / the same run's copy bandwidth (device_copy, bytes read + written); "
                        "x_gathers_bytes = one read of x per nonzero, not in the floor";
    doc["matrices"] = std::move(matrices);
    write_json_file(o.out_path, doc);
    os << "wrote " << o.out_path << '\n';
  }
  return failures == 0 ? 0 : 1;
}

}  // namespace mmv::tool::kernels
