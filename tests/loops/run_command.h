// Running shell commands from the loops tests.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace macroscope::loops::testing {

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

inline CommandResult RunCommand(const std::string& command) {
  CommandResult result;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return result;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) result.output.append(buffer, n);
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

inline std::string Macroscope() { return MACROSCOPE_BINARY; }

// A scratch directory for one test, removed by the caller's TearDown.
inline std::string ScratchDir(const std::string& name) {
  std::string dir = ::testing::TempDir() + "loops_" + name;
  RunCommand("rm -rf '" + dir + "' && mkdir -p '" + dir + "'");
  return dir;
}

inline void WriteText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

inline std::string Join(const std::vector<int64_t>& values, const char* separator = "\n") {
  std::ostringstream out;
  for (size_t i = 0; i < values.size(); ++i) out << (i ? separator : "") << values[i];
  out << "\n";
  return out.str();
}

}  // namespace macroscope::loops::testing
