// The CSV file of `mmvram sweep` (sweep_csv.hpp).
#include "sweep_csv.hpp"

#include "cli.hpp"
#include "report.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>  // mkstemp
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace mmv::tool {

namespace {

std::string system_error_text() { return std::strerror(errno); }

}  // namespace

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

std::size_t column_of(const std::string& name) {
  return static_cast<std::size_t>(std::find(csv_columns().begin(), csv_columns().end(), name) - csv_columns().begin());
}

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

csv_lock::csv_lock(const std::string& path) {
  for (;;) {
    // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below.
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0666);
    if (fd < 0) throw usage_error("cannot open '" + path + "': " + system_error_text());
    struct stat kind{};
    if (::fstat(fd, &kind) != 0 || !S_ISREG(kind.st_mode)) {
      ::close(fd);
      throw usage_error("--out '" + path + "' is not a regular file (a sweep appends its rows to a regular file)");
    }
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

csv_lock::~csv_lock() { ::close(fd_); }

void csv_lock::replace(int fd) {
  ::close(fd_);
  fd_ = fd;
}

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

}  // namespace mmv::tool
