#include "util/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <cstdio>
#include <vector>

#include "util/error.h"
#include "util/run_file.h"

namespace macroscope {

namespace {

// Standard input copied into an unlinked file of TempDirectory(), to be
// mapped as any file: a pipe of any size is then read in the memory of a
// file's pages, which the kernel takes back (Release), not held whole.
int SpoolStandardInput() {
  auto fail = [](const std::string& what) {
    throw UserError("standard input: cannot " + what + " in " + TempDirectory() + ": " + std::strerror(errno) +
                    " (TMPDIR names the folder; reading standard input needs room for the whole trace there)");
  };
  const int fd = OpenUnlinkedTempFile("macroscope-stdin");
  if (fd < 0) fail("create a temporary file");
  std::vector<char> block(size_t{1} << 20);
  for (;;) {
    const ssize_t got = read(STDIN_FILENO, block.data(), block.size());
    if (got == 0) break;
    if (got < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      close(fd);
      throw UserError("standard input: cannot read: " + std::string(std::strerror(err)));
    }
    for (ssize_t done = 0; done < got;) {
      const ssize_t n = write(fd, block.data() + done, static_cast<size_t>(got - done));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        const int err = errno;
        close(fd);
        errno = err;
        fail("copy it");
      }
      done += n;
    }
  }
  return fd;
}

}  // namespace

MappedFile::MappedFile(std::string path) : path_(std::move(path)) {
  int fd = -1;
  if (path_ == "-") {
    fd = SpoolStandardInput();
  } else {
    fd = open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw UserError(path_ + ": cannot open: " + std::strerror(errno));
  }
  const std::string name = path_ == "-" ? "standard input" : path_;
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    throw UserError(name + ": not a regular file");
  }
  size_ = static_cast<size_t>(st.st_size);
  if (size_ > 0) {
    void* p = mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      int err = errno;
      close(fd);
      throw UserError(name + ": cannot map: " + std::strerror(err));
    }
    madvise(p, size_, MADV_SEQUENTIAL);
    data_ = static_cast<const char*>(p);
    mapped_ = true;
  }
  close(fd);
}

void MappedFile::Release(size_t upto) {
  if (!mapped_) return;
  size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  upto = std::min(upto, size_) / page * page;
  if (upto > 0) madvise(const_cast<char*>(data_), upto, MADV_DONTNEED);
}

void MappedFile::ReleaseRange(size_t offset, size_t length) const {
  if (!mapped_ || offset >= size_) return;
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t begin = (offset + page - 1) / page * page;
  const size_t end = std::min(offset + length, size_) / page * page;
  if (begin < end) madvise(const_cast<char*>(data_) + begin, end - begin, MADV_DONTNEED);
}

MappedFile::~MappedFile() {
  if (mapped_) munmap(const_cast<char*>(data_), size_);
}

}  // namespace macroscope
