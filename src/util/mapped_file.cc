#include "util/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <cstdio>

#include "util/error.h"

namespace macroscope {

MappedFile::MappedFile(std::string path) : path_(std::move(path)) {
  if (path_ == "-") {
    // In blocks (through an istreambuf_iterator a character at a time it
    // read 30 MB/s).
    constexpr size_t kBlock = size_t{1} << 20;
    for (;;) {
      const size_t used = owned_.size();
      owned_.resize(used + kBlock);
      const size_t got = std::fread(owned_.data() + used, 1, kBlock, stdin);
      owned_.resize(used + got);
      if (got < kBlock) break;
    }
    if (std::ferror(stdin)) throw UserError("standard input: cannot read: " + std::string(std::strerror(errno)));
    data_ = owned_.data();
    size_ = owned_.size();
    return;
  }
  int fd = open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw UserError(path_ + ": cannot open: " + std::strerror(errno));
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    throw UserError(path_ + ": not a regular file");
  }
  size_ = static_cast<size_t>(st.st_size);
  if (size_ > 0) {
    void* p = mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      int err = errno;
      close(fd);
      throw UserError(path_ + ": cannot map: " + std::strerror(err));
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
