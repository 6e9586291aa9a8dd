// The sweep: points = algorithms x n x s x B x density (density only for inputs with flags),
// keyed by (algorithm, mode, word_bits, s, n, density, seed). A point with a passed row in the
// CSV (verified, no error) is skipped; one with only failed rows is run again, its old rows
// removed first (or kept and skipped with --keep-failed); failures set exit code 1 either way.
// New rows are appended and flushed one by one under a mutex, so an interrupted sweep loses at
// most the points in flight. Workers take points largest n first. The CSV is locked (flock) for
// the whole sweep, so a second sweep on the same file exits 2 instead of losing rows.
#include "sweep.hpp"

#include "output.hpp"
#include "report.hpp"
#include "runner.hpp"
#include "sweep_csv.hpp"

#include "mmvram/model/backend.hpp"
#include "mmvram/prediction/profile_file.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <new>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <unistd.h>

namespace mmv::tool {

namespace {

const std::vector<std::string> key_columns{"algorithm", "backend", "executor", "mode", "word_bits", "s", "n", "density", "seed"};

// On a terminal: one line redrawn in place. Otherwise (a log file): a line per tenth of the points.
class progress_bar {
 public:
  progress_bar(std::size_t total, bool quiet)
      : total_(total), quiet_(quiet), terminal_(::isatty(2) == 1), start_(clock::now()) {}
  void update(std::size_t done, const std::string& last) {
    if (quiet_) return;
    const bool new_tenth = done == 0 || done == total_ || done * 10 / total_ != (done - 1) * 10 / total_;
    if (!terminal_ && !new_tenth) return;
    const int width = 30, filled = total_ ? static_cast<int>(width * done / total_) : width;
    const double elapsed = std::chrono::duration<double>(clock::now() - start_).count();
    std::fprintf(stderr, "%s[%s%s] %zu/%zu  %.0fs  %-48.48s%s", terminal_ ? "\r" : "", std::string(filled, '#').c_str(),
                 std::string(width - filled, '.').c_str(), done, total_, elapsed, last.c_str(),
                 terminal_ && done != total_ ? "" : "\n");
    std::fflush(stderr);
  }

 private:
  using clock = std::chrono::steady_clock;
  std::size_t total_;
  bool quiet_, terminal_;
  clock::time_point start_;
};

std::vector<run_options> points_of(const sweep_options& o) {
  std::vector<run_options> points;
  for (const auto& name : o.algorithms) {
    const algorithm_entry& e = find_algorithm(name);
    if (o.mode == number_format::integer ? !e.integer_ok : !e.float_ok)
      throw usage_error(name + " does not run in " + to_string(o.mode) + " mode");
    const std::vector<double> densities = facts_of(e.shape).random_segments ? o.densities : std::vector<double>{o.densities.front()};
    for (auto n : o.ns)
      for (auto s : o.ss)
        for (auto bits : o.bits)
          for (auto d : densities) {
            run_options r;
            r.algorithm = e.name, r.s = s, r.bits = bits, r.mode = o.mode, r.backend = o.backend, r.repeat = o.repeat, r.profile = o.profile;
            r.executor = o.executor;
            r.input.n = n, r.input.density = d, r.input.seed = o.seed;
            points.push_back(r);
          }
  }
  std::stable_sort(points.begin(), points.end(),
                   [](const run_options& a, const run_options& b) { return a.input.n > b.input.n; });
  return points;
}

run_report failed_point(const run_options& p, const std::string& error) {
  run_report r;
  const algorithm_entry& e = find_algorithm(p.algorithm);
  r.algorithm = e.name, r.units = e.units, r.mode = to_string(p.mode), r.input_source = "random", r.backend = p.backend;
  r.executor = p.executor;
  r.n = p.input.n, r.s = p.s, r.bits = p.bits, r.density = p.input.density, r.seed = p.input.seed;
  r.error = error.empty() ? "error" : error;
  r.counted = false;
  return r;
}

}  // namespace

int run_sweep(const sweep_options& o) {
  std::vector<std::size_t> key_at;
  for (const auto& k : key_columns) key_at.push_back(column_of(k));

  // A point is done when a row of its key passed. A point with only failed rows is run again
  // and its failed rows are removed (the file is rewritten before the sweep appends), unless
  // --keep-failed keeps them as they are; either way the point's failure sets the exit code.
  const std::vector<run_options> points = points_of(o);  // bad options fail before the file is touched
  // Checked once, before the file is touched: a backend that cannot start (cuda without a GPU)
  // or a bad --profile fails the sweep with one line (exit 2), not every row.
  if (o.backend != "simulate") {
    machine_config c;
    c.backend = o.backend, c.executor = o.executor;
    (void)make_backend(c);
  }
  if (!o.profile.empty()) (void)read_profile(o.profile);
  csv_lock lock(o.out);
  const csv_contents existing = read_existing(o.out, key_at);
  std::vector<run_options> todo;
  std::set<std::string> redo;
  std::size_t present = 0, kept_failures = 0;
  for (const auto& p : points) {
    const std::string key = key_of(split_csv(csv_row(failed_point(p, ""))), key_at);
    if (existing.passed.count(key)) {
      ++present;
    } else if (existing.failed.count(key) && o.keep_failed) {
      ++present, ++kept_failures;
    } else {
      if (existing.failed.count(key)) redo.insert(key);
      todo.push_back(p);
    }
  }
  // Failed rows of a key that also has a passed row are stale: dropped too (one row per key).
  std::set<std::string> drop = redo;
  for (const auto& key : existing.failed)
    if (existing.passed.count(key)) drop.insert(key);
  if (existing.torn || !drop.empty()) rewrite(o.out, existing, drop, lock);

  const bool fresh = std::filesystem::file_size(o.out) == 0;  // csv_lock created a missing file
  std::ofstream csv(o.out, std::ios::app);
  if (!csv) throw usage_error("cannot write '" + o.out + "'");
  if (fresh) csv << csv_header() << "\n";
  check_written(csv, "'" + o.out + "'");

  std::mutex append;
  std::atomic<std::size_t> next{0};
  std::size_t finished = 0, failures = 0;
  progress_bar bar(todo.size(), o.quiet);
  bar.update(0, "");
  std::string write_error;  // the first failed append; the workers stop taking points
  const auto worker = [&] {
    for (std::size_t i; (i = next++) < todo.size();) {
      run_report r;
      try {
        r = run_once(todo[i]);
      } catch (const std::bad_alloc&) {
        r = failed_point(todo[i], "out of memory: the input is too large for this machine");
      } catch (const std::length_error& e) {
        r = failed_point(todo[i], std::string("out of memory: the input is too large for this machine (") + e.what() + ")");
      } catch (const std::exception& e) {
        r = failed_point(todo[i], escaped(e.what()));
      }
      std::lock_guard guard(append);
      if (!write_error.empty()) return;
      csv << csv_row(r) << "\n";
      try {
        check_written(csv, "'" + o.out + "'");
      } catch (const io_error& e) {
        write_error = e.what();
        next = todo.size();
        return;
      }
      failures += r.error.empty() && r.outcome.verified ? 0 : 1;
      bar.update(++finished, r.algorithm + " n=" + std::to_string(r.n) + " s=" + std::to_string(r.s) +
                                 (r.error.empty() ? "" : " (error)"));
    }
  };
  std::vector<std::thread> pool;
  const int jobs = std::max(1, std::min<int>(o.jobs, static_cast<int>(todo.size())));
  for (int j = 0; j < jobs; ++j) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  if (!write_error.empty()) throw io_error(write_error);
  if (!o.quiet)
    std::fprintf(stderr, "mmvram sweep: %zu new row(s), %zu already present, %zu failed -> %s%s%s\n", todo.size(),
                 present, failures + kept_failures, o.out.c_str(),
                 redo.empty() ? "" : (" (" + std::to_string(redo.size()) + " failed point(s) re-run)").c_str(),
                 kept_failures ? (" (" + std::to_string(kept_failures) + " failed row(s) kept)").c_str() : "");
  return failures + kept_failures ? 1 : 0;
}

}  // namespace mmv::tool
