// Helpers of the CTF tests: where the shared test data is, its expected
// counts, temporary folders and running commands.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

namespace macroscope::ctf::testing {

// CI checks out ../shared beside the clone of this repository; the test
// traces are in shared/testdata/ctf/.
inline std::string TestdataDir() {
  std::filesystem::path dir = std::filesystem::path(MACROSCOPE_SOURCE_DIR) / ".." / "shared" / "testdata";
  if (!std::filesystem::is_directory(dir / "ctf"))
    ADD_FAILURE() << "the shared test data is missing: looked for " << (dir / "ctf").string()
                  << " (a checkout of `shared` beside the repository)";
  return dir.lexically_normal().string();
}

struct Expected {
  uint64_t events = 0;
  std::map<std::string, uint64_t, std::less<>> per_name;
};

// The `ctf` rows of expected-counts.tsv, by trace (e.g. "ctf/bug446190").
inline std::map<std::string, Expected> ExpectedCounts() {
  std::map<std::string, Expected> out;
  std::ifstream in(TestdataDir() + "/expected-counts.tsv");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream row(line);
    std::string format, trace, kind, key, count;
    if (!std::getline(row, format, '\t') || format != "ctf") continue;
    std::getline(row, trace, '\t');
    std::getline(row, kind, '\t');
    std::getline(row, key, '\t');
    std::getline(row, count, '\t');
    if (kind == "total" && key == "events") out[trace].events = std::stoull(count);
    if (kind == "event") out[trace].per_name[key] = std::stoull(count);
  }
  return out;
}

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    static int counter = 0;
    path = std::filesystem::temp_directory_path() /
           ("macroscope-ctf-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

inline std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

inline std::string ReadFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

struct Run {
  int exit_code = -1;
  std::string out, err;
};

// Runs `command` through the shell, capturing its standard output and error.
inline Run RunCommand(const std::string& command) {
  TempDir dir;
  std::string full = command + " >" + Quote((dir.path / "out").string()) + " 2>" + Quote((dir.path / "err").string());
  int status = std::system(full.c_str());
  Run r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = ReadFile(dir.path / "out");
  r.err = ReadFile(dir.path / "err");
  return r;
}

// `babeltrace2 DIR | wc -l`: the reference event count.
inline uint64_t BabeltraceCount(const std::string& dir) {
  Run r = RunCommand(std::string(BABELTRACE2_COMMAND) + " " + Quote(dir) + " | wc -l");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out.empty() ? 0 : std::stoull(r.out);
}

}  // namespace macroscope::ctf::testing
