// Helpers every test area shares: scratch folders, files, running commands
// (the built binary among them), and the shared test data with its
// reference counts. One copy here; test folders keep only what is theirs.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace macroscope::testing {

// A fresh folder under $TMPDIR (or /tmp), removed with its content when the
// object dies.
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

std::string ReadText(const std::string& path);
void WriteText(const std::string& path, const std::string& text);

// The lines of `text`, sorted: outputs compared as sets of lines (pj_dump's
// order is not macroscope's).
std::vector<std::string> SortedLines(const std::string& text);

// Single-quotes `s` for the shell.
std::string Quote(const std::string& s);

struct CommandResult {
  int exit_code = -1;  // -1 when the command did not exit normally (a crash)
  std::string out, err;
};

// Runs `command` with /bin/sh, standard output and error captured apart.
CommandResult RunCommand(const std::string& command);

// Runs the built `macroscope` with `args` (already quoted as needed).
CommandResult Macroscope(const std::string& args);

// The same with standard error on a pseudo-terminal, as a person running
// it sees it (`err`: every byte written there, terminal codes included);
// standard output captured apart. `env`: "NAME=value ..." set first.
CommandResult MacroscopeOnTerminal(const std::string& args, const std::string& env = "");

// `macroscope COMMAND --threads N TRACE` (COMMAND: shell text, e.g. "stats
// --format csv") with N = 2 and 4 (or each of `threads`) exits, prints and
// fails as with N = 1: a reader's threads give its sequential result.
// Returns N = 1's run.
CommandResult ExpectSameWithThreads(const std::string& command, const std::string& trace,
                                    const std::vector<int>& threads = {2, 4});

// The shared test data (../shared/testdata beside the clone): real traces
// written by other tools. CI has it; a user's clone does not, so tests on it
// start with MACROSCOPE_NEEDS_SHARED_TESTDATA(), which skips them then.
std::string SharedTestData();
bool HaveSharedTestData();
#define MACROSCOPE_NEEDS_SHARED_TESTDATA()                                                    \
  if (!::macroscope::testing::HaveSharedTestData())                                          \
  GTEST_SKIP() << "no shared test data at " << ::macroscope::testing::SharedTestData()       \
               << " (real traces of other tools; CI checks it out beside the clone)"

// The rows of the shared data's expected-counts.tsv for one trace of one
// format, as "KIND KEY" -> count ("total events" -> 891, "ph B" -> 933).
std::map<std::string, uint64_t> ExpectedCounts(const std::string& format, const std::string& trace);

}  // namespace macroscope::testing
