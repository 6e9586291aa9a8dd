// The CSV file of `mmvram sweep`: reading the rows already there (by point key, passed or
// failed), an exclusive lock held for the whole sweep, and the atomic rewrite that drops failed
// rows. The rules are in docs/tool.md (`mmvram sweep`).
#pragma once
#include <cstddef>
#include <set>
#include <string>
#include <vector>

namespace mmv::tool {

// Splits one CSV line (RFC 4180 quoting, no embedded newlines).
std::vector<std::string> split_csv(const std::string& line);

// The key of a row: its cells at the positions `at`, joined.
std::string key_of(const std::vector<std::string>& cells, const std::vector<std::size_t>& at);

// The position of a column of csv_columns() (csv_columns().size() when absent).
std::size_t column_of(const std::string& name);

// The rows already in a sweep's CSV: every line (the header first) and, per key, whether some
// row of it passed (verified = true, no error) or only failed rows exist.
struct csv_contents {
  std::vector<std::string> lines;
  std::vector<std::string> line_keys;  // the key of lines[i] ("" for the header)
  std::vector<bool> line_passed;       // whether lines[i] is a passed row
  std::set<std::string> passed, failed;
  bool torn = false;                   // the file ended inside a line (an interrupted write)
};

// Reads `path` (missing or empty: no rows), keyed by the columns at `at`; drops a torn last
// line. Throws usage_error when the header is not csv_header() (a one-line file without a
// newline must be the start of the header).
csv_contents read_existing(const std::string& path, const std::vector<std::size_t>& at);

// An exclusive lock (flock) on a sweep's CSV, created if missing, held from reading it to the
// last appended row, so that two sweeps on one file never interleave: a second one gets
// usage_error at once, and so does a path that is not a regular file (a device, a FIFO, a
// directory). It follows the file across rewrite().
class csv_lock {
 public:
  explicit csv_lock(const std::string& path);
  csv_lock(const csv_lock&) = delete;
  csv_lock& operator=(const csv_lock&) = delete;
  ~csv_lock();
  int fd() const { return fd_; }
  // Holds `fd` (already locked) instead, releasing the old file.
  void replace(int fd);

 private:
  int fd_ = -1;
};

// Replaces `path` by its lines less the failed rows of the keys in `drop`: written to a new
// file beside it (same permissions, locked before it becomes visible), then renamed over it, so
// an interruption leaves either the old or the new file. A symbolic link stays a link: its
// target is replaced. `lock` then holds the new file.
void rewrite(const std::string& path, const csv_contents& c, const std::set<std::string>& drop, csv_lock& lock);

}  // namespace mmv::tool
