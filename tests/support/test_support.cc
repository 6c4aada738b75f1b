#include "test_support.h"

#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace macroscope::testing {

TempDir::TempDir() {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/macroscope-test-XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) ADD_FAILURE() << "mkdtemp failed for " << pattern;
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void WriteText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

std::string Quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::vector<std::string> SortedLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

CommandResult RunCommand(const std::string& command) {
  TempDir dir;
  const std::string out = dir.path() + "/out", err = dir.path() + "/err";
  const int status = std::system((command + " >" + Quote(out) + " 2>" + Quote(err)).c_str());
  CommandResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = ReadText(out);
  r.err = ReadText(err);
  return r;
}

CommandResult Macroscope(const std::string& args) { return RunCommand(std::string(MACROSCOPE_BINARY) + " " + args); }

CommandResult MacroscopeOnTerminal(const std::string& args, const std::string& env) {
  TempDir dir;
  const std::string out = dir.path() + "/out";
  const std::string command =
      (env.empty() ? "" : "env " + env + " ") + std::string(MACROSCOPE_BINARY) + " " + args + " >" + Quote(out);
  int terminal = -1;
  const pid_t pid = forkpty(&terminal, nullptr, nullptr, nullptr);
  if (pid == 0) {
    // The child: standard input and error on the terminal, output to the file.
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  CommandResult r;
  if (pid < 0) return r;
  char buffer[4096];
  for (;;) {  // until the child closes the terminal (EIO on Linux)
    const ssize_t n = read(terminal, buffer, sizeof buffer);
    if (n > 0) {
      r.err.append(buffer, static_cast<size_t>(n));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      break;
    }
  }
  close(terminal);
  int status = 0;
  waitpid(pid, &status, 0);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = ReadText(out);
  return r;
}

CommandResult ExpectSameWithThreads(const std::string& command, const std::string& trace,
                                    const std::vector<int>& threads_list) {
  auto run = [&](int threads) {
    return Macroscope(command + " --threads " + std::to_string(threads) + " " + Quote(trace));
  };
  CommandResult one = run(1);
  for (int threads : threads_list) {
    CommandResult many = run(threads);
    EXPECT_EQ(many.exit_code, one.exit_code)
        << command << " --threads " << threads << " on " << trace << ": " << many.err;
    EXPECT_TRUE(many.out == one.out) << command << " --threads " << threads << ": the output differs on " << trace;
    EXPECT_EQ(many.err, one.err) << command << " --threads " << threads << " on " << trace;
  }
  return one;
}

std::string SharedTestData() {
  return (std::filesystem::path(MACROSCOPE_SOURCE_DIR) / ".." / "shared" / "testdata").lexically_normal().string();
}

bool HaveSharedTestData() { return std::filesystem::is_regular_file(SharedTestData() + "/expected-counts.tsv"); }

std::map<std::string, uint64_t> ExpectedCounts(const std::string& format, const std::string& trace) {
  const std::string path = SharedTestData() + "/expected-counts.tsv";
  std::ifstream in(path);
  EXPECT_TRUE(in) << "cannot read " << path;
  std::map<std::string, uint64_t> counts;
  for (std::string line; std::getline(in, line);) {
    std::istringstream row(line);
    std::string f, name, kind, key, count;
    if (!std::getline(row, f, '\t') || !std::getline(row, name, '\t') || !std::getline(row, kind, '\t') ||
        !std::getline(row, key, '\t') || !std::getline(row, count))
      continue;
    if (f == format && name == trace) counts[kind + " " + key] = std::stoull(count);
  }
  EXPECT_FALSE(counts.empty()) << "no counts for " << format << " " << trace << " in " << path;
  return counts;
}

}  // namespace macroscope::testing
