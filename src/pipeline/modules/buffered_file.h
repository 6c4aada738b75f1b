// An output file the writers fill as rows arrive: text gathered in a
// buffer, written in 1 MiB pieces to an AtomicFile, so the file appears
// whole (Commit) or not at all (a failed or cancelled workflow).
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

#include "util/atomic_file.h"
#include "util/error.h"

namespace macroscope::pipeline {

class BufferedFile {
 public:
  explicit BufferedFile(std::string path) : path_(std::move(path)), file_(path_) {}
  // The buffer to append to; Flush() now and then writes it out.
  std::string& text() { return text_; }
  void Flush(bool force = false) {
    if (!force && text_.size() < (1 << 20)) return;
    if (std::fwrite(text_.data(), 1, text_.size(), file_.stream()) != text_.size())
      throw UserError(path_ + ": cannot write");
    text_.clear();
  }
  void Commit() {
    Flush(true);
    file_.Commit();
  }

 private:
  std::string path_;
  AtomicFile file_;
  std::string text_;
};

}  // namespace macroscope::pipeline
