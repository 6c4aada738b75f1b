// A temporary file holding one sorted run of an external sort (Pajé's
// --sort, the Chrome reader beyond its memory budget): written whole, then
// read back once. It lives in $TMPDIR and is unlinked as soon as it is
// created, so none is left behind whatever happens to the process.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

namespace macroscope {

// The folder temporary files go to: TMPDIR, else the system's.
std::string TempDirectory();
// A new file in TempDirectory(), its name `prefix` and a random suffix,
// unlinked at once (its descriptor keeps it: nothing is left behind, on
// any exit); -1, errno set, when it cannot be created.
int OpenUnlinkedTempFile(const std::string& prefix);

class RunFile {
 public:
  // `purpose` and `need` only word the messages: "DIR: cannot write a sorted
  // run for PURPOSE: ERROR (TMPDIR names the folder; PURPOSE needs NEED there)".
  RunFile(std::string purpose, std::string need);
  ~RunFile();
  RunFile(const RunFile&) = delete;
  RunFile& operator=(const RunFile&) = delete;

  // Throws UserError when the bytes cannot be written.
  void Write(const void* data, size_t size);
  // After the last Write(): reading starts from the beginning.
  void Rewind();
  // The next `size` bytes; false at the end of the file (nothing left to
  // read). Throws UserError on a partial read.
  bool Read(void* data, size_t size);
  // `size` bytes from `offset` (any place, any time after they were
  // written), without moving where Read() reads. Throws UserError unless
  // all are there.
  void ReadAt(uint64_t offset, void* data, size_t size);
  // The rest of a record whose start Read() gave: throws UserError unless
  // all `size` bytes are there.
  void ReadRest(void* data, size_t size);

 private:
  [[noreturn]] void Fail(const std::string& what) const;

  std::string directory_, purpose_, need_;
  std::FILE* stream_ = nullptr;
};

}  // namespace macroscope
