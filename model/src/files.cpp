// Non-blocking, bounded whole-file reads and writes (files.hpp).
#include "mmvram/model/files.hpp"

#include "mmvram/model/types.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace mmv {

namespace {

// Closes the descriptor when the scope ends.
struct descriptor {
  int fd;
  ~descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::string read_regular_file(const std::string& path, const std::string& what, std::uint64_t max_bytes) {
  const std::string named = what + " '" + path + "'";
  const descriptor d{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)};
  if (d.fd < 0) throw model_error("cannot open " + named + ": " + std::strerror(errno));
  struct stat st{};
  if (::fstat(d.fd, &st) != 0) throw model_error("cannot read " + named + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw model_error(named + " is not a regular file (devices and pipes are not read)");
  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (size > max_bytes)
    throw model_error(named + " is " + std::to_string(size) + " bytes, more than the " + std::to_string(max_bytes) +
                      " bytes mmvram reads");
  std::string bytes(static_cast<std::size_t>(size), '\0');
  std::size_t got = 0;
  while (got < bytes.size()) {
    const ssize_t r = ::read(d.fd, bytes.data() + got, bytes.size() - got);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) throw model_error("cannot read " + named + ": " + std::strerror(errno));
    if (r == 0) break;  // the file shrank while it was read
    got += static_cast<std::size_t>(r);
  }
  bytes.resize(got);
  // A file that grew while it was read: its first max_bytes only would be a silent truncation.
  char extra = 0;
  if (got == size && ::read(d.fd, &extra, 1) > 0)
    throw model_error("cannot read " + named + ": it grew while it was read");
  return bytes;
}

void write_whole_file(const std::string& path, const std::string& bytes, const std::string& what) {
  descriptor d{::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0666)};
  if (d.fd < 0 && errno == ENXIO)
    throw model_error("cannot write " + what + ": it is a pipe (FIFO) with no reader, and mmvram does not wait for one");
  if (d.fd < 0) throw model_error("cannot write " + what + ": " + std::strerror(errno));
  // Blocking writes from here on: a reader of a pipe is there, a regular file never blocks.
  const int flags = ::fcntl(d.fd, F_GETFL);
  if (flags < 0 || ::fcntl(d.fd, F_SETFL, flags & ~O_NONBLOCK) != 0)
    throw model_error("cannot write " + what + ": " + std::strerror(errno));
  std::size_t put = 0;
  while (put < bytes.size()) {
    const ssize_t w = ::write(d.fd, bytes.data() + put, bytes.size() - put);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) throw model_error("cannot write " + what + ": " + std::strerror(w < 0 ? errno : EIO));
    put += static_cast<std::size_t>(w);
  }
  const int fd = d.fd;
  d.fd = -1;
  if (::close(fd) != 0) throw model_error("cannot write " + what + ": " + std::strerror(errno));
}

}  // namespace mmv
