#include "util/run_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "util/error.h"

namespace macroscope {

namespace {

// Stream buffer of each run: small, as a merge reads every run at once.
constexpr size_t kRunBuffer = size_t{64} << 10;

}  // namespace

std::string TempDirectory() {
  const char* dir = std::getenv("TMPDIR");
  return dir != nullptr && *dir != '\0' ? dir : P_tmpdir;
}

int OpenUnlinkedTempFile(const std::string& prefix) {
  std::string path = TempDirectory() + "/" + prefix + "-XXXXXX";
  const int fd = mkstemp(path.data());
  if (fd >= 0) unlink(path.c_str());
  return fd;
}

RunFile::RunFile(std::string purpose, std::string need)
    : directory_(TempDirectory()), purpose_(std::move(purpose)), need_(std::move(need)) {
  const int fd = OpenUnlinkedTempFile("macroscope-sort");
  if (fd < 0) Fail("cannot create a temporary file");
  stream_ = fdopen(fd, "w+b");
  if (stream_ == nullptr) {
    int err = errno;
    close(fd);
    errno = err;
    Fail("cannot open a temporary file");
  }
  std::setvbuf(stream_, nullptr, _IOFBF, kRunBuffer);
}

RunFile::~RunFile() {
  if (stream_ != nullptr) std::fclose(stream_);
}

void RunFile::Write(const void* data, size_t size) {
  if (std::fwrite(data, 1, size, stream_) != size) Fail("cannot write a sorted run");
}

void RunFile::Rewind() {
  if (std::fflush(stream_) != 0 || std::fseek(stream_, 0, SEEK_SET) != 0) Fail("cannot write a sorted run");
}

bool RunFile::Read(void* data, size_t size) {
  size_t n = std::fread(data, 1, size, stream_);
  if (n == 0 && size > 0 && std::feof(stream_)) return false;
  if (n != size) Fail("cannot read a sorted run back");
  return true;
}

void RunFile::ReadRest(void* data, size_t size) {
  if (std::fread(data, 1, size, stream_) != size) Fail("cannot read a sorted run back");
}

void RunFile::ReadAt(uint64_t offset, void* data, size_t size) {
  if (std::fflush(stream_) != 0) Fail("cannot write a sorted run");
  auto* bytes = static_cast<char*>(data);
  for (size_t done = 0; done < size;) {
    const ssize_t n = pread(fileno(stream_), bytes + done, size - done, static_cast<off_t>(offset + done));
    if (n <= 0) Fail("cannot read a sorted run back");
    done += static_cast<size_t>(n);
  }
}

void RunFile::Fail(const std::string& what) const {
  throw UserError(directory_ + ": " + what + " for " + purpose_ + ": " + std::strerror(errno) +
                  " (TMPDIR names the folder; " + purpose_ + " needs " + need_ + " there)");
}

}  // namespace macroscope
