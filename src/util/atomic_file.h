// Output files that appear whole or not at all: written to a temporary file
// beside the target, renamed over it by Commit(). Destroyed without Commit(),
// the temporary file is removed and the target is left untouched.
#pragma once

#include <cstdio>
#include <string>

namespace macroscope {

class AtomicFile {
 public:
  // Throws UserError when the temporary file cannot be created.
  explicit AtomicFile(std::string path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  std::FILE* stream() { return stream_; }
  // Flushes, closes and renames; throws UserError on any I/O failure.
  // `synced`: the data reaches the disk before the rename, so that a crash
  // leaves the old file or the new one whole. A cache, which checks what it
  // reads back, passes false: syncing a model of 150 MB took longer than
  // building it.
  void Commit(bool synced = true);

 private:
  std::string path_;
  std::string temp_path_;
  std::FILE* stream_ = nullptr;
};

}  // namespace macroscope
