// What the loops tests add to the shared helpers (tests/support): commands
// whose standard output and error are read together, in the order the
// messages came, and integer traces as text.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.h"

namespace macroscope::loops::testing {

using macroscope::testing::WriteText;

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

inline CommandResult RunCommand(const std::string& command) {
  // The inner group's error joins its output before the shared helper
  // redirects the outer one.
  const macroscope::testing::CommandResult run = macroscope::testing::RunCommand("( ( " + command + " ) 2>&1 )");
  return {run.exit_code, run.out};
}

// The built binary's path, to compose command lines.
inline std::string Macroscope() { return MACROSCOPE_BINARY; }

// A scratch directory for one test, removed by the caller.
inline std::string ScratchDir(const std::string& name) {
  std::string dir = ::testing::TempDir() + "loops_" + name;
  RunCommand("rm -rf '" + dir + "' && mkdir -p '" + dir + "'");
  return dir;
}

inline std::string Join(const std::vector<int64_t>& values, const char* separator = "\n") {
  std::ostringstream out;
  for (size_t i = 0; i < values.size(); ++i) out << (i ? separator : "") << values[i];
  out << "\n";
  return out.str();
}

}  // namespace macroscope::loops::testing
