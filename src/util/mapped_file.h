// A read-only memory map of a whole file (or, for "-", of standard input
// copied into an unlinked temporary file first: a pipe of any size takes
// disk, not memory). Throws UserError naming the file when it cannot be
// read.
#pragma once

#include <string>
#include <string_view>

namespace macroscope {

class MappedFile {
 public:
  explicit MappedFile(std::string path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::string_view bytes() const { return {data_, size_}; }
  // Tells the kernel the first `upto` bytes will not be read again, so their
  // pages leave the process's memory (a hint).
  void Release(size_t upto);
  // The same for the bytes [offset, offset + length): the whole pages inside
  // it leave the process's memory (read again from the file if touched).
  void ReleaseRange(size_t offset, size_t length) const;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  const char* data_ = nullptr;
  size_t size_ = 0;
  bool mapped_ = false;
};

}  // namespace macroscope
