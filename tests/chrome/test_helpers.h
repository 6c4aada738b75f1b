// Shared helpers of the Chrome tests: running the binary, scratch files,
// where the shared test data is.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace macroscope::chrome::testing {

struct CommandResult {
  int exit_code = -1;
  std::string out, err;
};

inline std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void WriteText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

inline std::string Scratch(const std::string& name) {
  std::string dir = ::testing::TempDir() + "chrome_" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// Runs `macroscope ARGS`, stdout and stderr apart.
inline CommandResult Macroscope(const std::string& args) {
  static int n = 0;
  std::string base = ::testing::TempDir() + "chrome_cmd_" + std::to_string(getpid()) + "_" + std::to_string(n++);
  std::string command = std::string(MACROSCOPE_BINARY) + " " + args + " > " + base + ".out 2> " + base + ".err";
  int status = std::system(command.c_str());
  CommandResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = ReadText(base + ".out");
  r.err = ReadText(base + ".err");
  std::filesystem::remove(base + ".out");
  std::filesystem::remove(base + ".err");
  return r;
}

// The shared test data sits beside the clone (../shared/testdata), as in CI.
inline std::string ChromeTestData() { return std::string(MACROSCOPE_SOURCE_DIR) + "/../shared/testdata/chrome"; }

}  // namespace macroscope::chrome::testing
