#include "util/atomic_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "util/error.h"

namespace macroscope {

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
  temp_path_ = path_ + ".tmp-XXXXXX";
  std::vector<char> name(temp_path_.begin(), temp_path_.end());
  name.push_back('\0');
  int fd = mkstemp(name.data());
  if (fd < 0) throw UserError(path_ + ": cannot create: " + std::strerror(errno));
  temp_path_.assign(name.data());
  // mkstemp makes the file private; give it the mode a plain create would.
  mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask);
  stream_ = fdopen(fd, "w");
  if (stream_ == nullptr) {
    close(fd);
    unlink(temp_path_.c_str());
    throw UserError(path_ + ": cannot open: " + std::strerror(errno));
  }
}

AtomicFile::~AtomicFile() {
  if (stream_ != nullptr) {
    std::fclose(stream_);
    unlink(temp_path_.c_str());
  }
}

void AtomicFile::Commit(bool synced) {
  bool ok = std::fflush(stream_) == 0 && (!synced || fsync(fileno(stream_)) == 0);
  ok = (std::fclose(stream_) == 0) && ok;
  stream_ = nullptr;
  if (!ok || std::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    int err = errno;
    unlink(temp_path_.c_str());
    throw UserError(path_ + ": cannot write: " + std::strerror(err));
  }
}

}  // namespace macroscope
