// Helpers of the OTF2 tests: temporary folders and running commands.
#pragma once

#include <map>
#include <string>

namespace macroscope::otf2::testing {

// A fresh directory under $TMPDIR (or /tmp), removed with its content when
// the object dies.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

struct CommandResult {
  int exit_code = -1;  // -1 when the command did not exit normally (a crash)
  std::string out, err;
};

// Runs `command` with /bin/sh, capturing its standard output and error.
CommandResult RunCommand(const std::string& command);

// Single-quotes `s` for the shell.
std::string Quote(const std::string& s);

// Event records per record kind in `otf2-print ANCHOR`'s listing ("ENTER" -> 42).
std::map<std::string, int> Otf2PrintCounts(const std::string& anchor);

// The shared test data (../shared/testdata beside the repository, as in CI).
std::string SharedTestData();

}  // namespace macroscope::otf2::testing
