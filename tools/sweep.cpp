// The sweep: points = algorithms x n x s x B x density (density only for inputs with flags),
// keyed by (algorithm, mode, word_bits, s, n, density, seed). A point with a passed row in the
// CSV (verified, no error) is skipped; one with only failed rows is run again, its old rows
// removed first (or kept and skipped with --keep-failed); failures set exit code 1 either way.
// New rows are appended and flushed one by one under a mutex, so an interrupted sweep loses at
// most the points in flight. Workers take points largest n first. The CSV is locked (flock) for
// the whole sweep, so a second sweep on the same file exits 2 instead of losing rows.
#include "sweep.hpp"

#include "report.hpp"
#include "runner.hpp"

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

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace mmv::tool {

namespace {

const std::vector<std::string> key_columns{"algorithm", "mode", "word_bits", "s", "n", "density", "seed"};

// Splits one CSV line (RFC 4180 quoting, no embedded newlines).
std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') cells.back() += '"', ++i;
    else if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) cells.emplace_back();
    else cells.back() += c;
  }
  return cells;
}

std::string key_of(const std::vector<std::string>& cells, const std::vector<std::size_t>& at) {
  std::string key;
  for (auto i : at) key += (i < cells.size() ? cells[i] : std::string()) + '\x1f';
  return key;
}

// The rows already in a sweep's CSV: every line (the header first) and, per key, whether some
// row of it passed (verified = true, no error) or only failed rows exist.
struct csv_contents {
  std::vector<std::string> lines;
  std::vector<std::string> line_keys;  // the key of lines[i] ("" for the header)
  std::vector<bool> line_passed;       // whether lines[i] is a passed row
  std::set<std::string> passed, failed;
  bool torn = false;                   // the file ended inside a line (an interrupted write)
};

std::size_t column_of(const std::string& name) {
  return static_cast<std::size_t>(std::find(csv_columns().begin(), csv_columns().end(), name) - csv_columns().begin());
}

// Reads `path` (missing: no rows); drops a torn last line (no newline).
csv_contents read_existing(const std::string& path, const std::vector<std::size_t>& at) {
  csv_contents c;
  std::ifstream in(path);
  if (!in) return c;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();
  if (text.empty()) return c;
  const auto different_header = [&] {
    return usage_error("'" + path + "' has a different CSV header than this mmvram writes; use a new --out file");
  };
  if (text.back() != '\n') {
    // A torn last line is dropped; a file without any newline must be a torn header.
    if (text.find('\n') == std::string::npos && csv_header().rfind(text, 0) != 0) throw different_header();
    text.resize(text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1);
    c.torn = true;
  }
  std::istringstream lines(text);
  std::string line;
  if (std::getline(lines, line) && line != csv_header()) throw different_header();
  if (!text.empty()) c.lines.push_back(line), c.line_keys.emplace_back(), c.line_passed.push_back(false);
  const std::size_t verified = column_of("verified"), error = column_of("error");
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    const auto cells = split_csv(line);
    const std::string key = key_of(cells, at);
    const bool ok = verified < cells.size() && cells[verified] == "true" && (error >= cells.size() || cells[error].empty());
    (ok ? c.passed : c.failed).insert(key);
    c.lines.push_back(line), c.line_keys.push_back(key), c.line_passed.push_back(ok);
  }
  return c;
}

std::string system_error_text() { return std::strerror(errno); }

// An exclusive lock on a sweep's CSV, held from reading it to the last appended row, so that
// two sweeps on one file never interleave (the second exits 2). rewrite() replaces the file by
// a new one that it locks first; a sweep that locked a file since replaced locks the new one.
class csv_lock {
 public:
  explicit csv_lock(const std::string& path) {
    for (;;) {
      const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
      if (fd < 0) throw usage_error("cannot open '" + path + "': " + system_error_text());
      if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        const bool busy = errno == EWOULDBLOCK;
        const std::string why = system_error_text();
        ::close(fd);
        if (busy)
          throw usage_error("'" + path + "' is being written by another mmvram sweep; wait for it or use another --out file");
        throw usage_error("cannot lock '" + path + "': " + why);
      }
      struct stat held{}, named{};
      if (::fstat(fd, &held) == 0 && ::stat(path.c_str(), &named) == 0 && held.st_dev == named.st_dev &&
          held.st_ino == named.st_ino) {
        fd_ = fd;
        return;
      }
      ::close(fd);  // replaced by another sweep's rewrite after we opened it: lock the new file
    }
  }
  csv_lock(const csv_lock&) = delete;
  csv_lock& operator=(const csv_lock&) = delete;
  ~csv_lock() { ::close(fd_); }
  int fd() const { return fd_; }
  // Holds `fd` (already locked) instead, releasing the old file.
  void replace(int fd) {
    ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

// Replaces `path` by its lines less the failed rows of the keys in `drop`: written to a new
// file beside it (same permissions, locked before it becomes visible), then renamed over it, so
// an interruption leaves either the old or the new file. A symbolic link stays a link: its
// target is replaced.
void rewrite(const std::string& path, const csv_contents& c, const std::set<std::string>& drop, csv_lock& lock) {
  const std::filesystem::path target = std::filesystem::canonical(path);
  std::string name = (target.parent_path() / (target.filename().string() + ".XXXXXX")).string();
  const int fd = ::mkstemp(name.data());
  if (fd < 0) throw usage_error("cannot create a file beside '" + path + "' to rewrite it: " + system_error_text());
  std::string text;
  for (std::size_t i = 0; i < c.lines.size(); ++i)
    if (i == 0 || c.line_passed[i] || !drop.count(c.line_keys[i])) text += c.lines[i] + "\n";
  struct stat old{};
  bool ok = ::flock(fd, LOCK_EX) == 0 && ::fstat(lock.fd(), &old) == 0 && ::fchmod(fd, old.st_mode & 07777) == 0;
  for (std::size_t done = 0; ok && done < text.size();) {
    const ssize_t w = ::write(fd, text.data() + done, text.size() - done);
    ok = w > 0;
    done += ok ? static_cast<std::size_t>(w) : 0;
  }
  if (!ok || ::fsync(fd) != 0 || ::rename(name.c_str(), target.c_str()) != 0) {
    const std::string why = system_error_text();
    ::close(fd);
    ::unlink(name.c_str());
    throw usage_error("cannot rewrite '" + path + "': " + why);
  }
  lock.replace(fd);
}

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
    const bool flagged = e.shape == input_shape::segmented || e.shape == input_shape::decayed ||
                         e.shape == input_shape::sparse_matrix;
    const std::vector<double> densities = flagged ? o.densities : std::vector<double>{o.densities.front()};
    for (auto n : o.ns)
      for (auto s : o.ss)
        for (auto bits : o.bits)
          for (auto d : densities) {
            run_options r;
            r.algorithm = e.name, r.s = s, r.bits = bits, r.mode = o.mode;
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
  r.algorithm = e.name, r.units = e.units, r.mode = to_string(p.mode), r.input_source = "random";
  r.n = p.input.n, r.s = p.s, r.bits = p.bits, r.density = p.input.density, r.seed = p.input.seed;
  r.error = error.empty() ? "error" : error;
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

  const bool fresh = !std::filesystem::exists(o.out) || std::filesystem::file_size(o.out) == 0;
  std::ofstream csv(o.out, std::ios::app);
  if (!csv) throw usage_error("cannot write '" + o.out + "'");
  if (fresh) csv << csv_header() << "\n" << std::flush;

  std::mutex append;
  std::atomic<std::size_t> next{0};
  std::size_t finished = 0, failures = 0;
  progress_bar bar(todo.size(), o.quiet);
  bar.update(0, "");
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
        r = failed_point(todo[i], e.what());
      }
      std::lock_guard guard(append);
      csv << csv_row(r) << "\n" << std::flush;
      failures += r.error.empty() && r.outcome.verified ? 0 : 1;
      bar.update(++finished, r.algorithm + " n=" + std::to_string(r.n) + " s=" + std::to_string(r.s) +
                                 (r.error.empty() ? "" : " (error)"));
    }
  };
  std::vector<std::thread> pool;
  const int jobs = std::max(1, std::min<int>(o.jobs, static_cast<int>(todo.size())));
  for (int j = 0; j < jobs; ++j) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  if (!o.quiet)
    std::fprintf(stderr, "mmvram sweep: %zu new row(s), %zu already present, %zu failed -> %s%s%s\n", todo.size(),
                 present, failures + kept_failures, o.out.c_str(),
                 redo.empty() ? "" : (" (" + std::to_string(redo.size()) + " failed point(s) re-run)").c_str(),
                 kept_failures ? (" (" + std::to_string(kept_failures) + " failed row(s) kept)").c_str() : "");
  return failures + kept_failures ? 1 : 0;
}

}  // namespace mmv::tool
