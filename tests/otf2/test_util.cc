#include "test_util.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace macroscope::otf2::testing {

TempDir::TempDir() {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/macroscope-otf2-XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) ADD_FAILURE() << "mkdtemp failed for " << pattern;
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string Quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

static std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

CommandResult RunCommand(const std::string& command) {
  TempDir dir;
  std::string out = dir.path() + "/out", err = dir.path() + "/err";
  int status = std::system((command + " >" + Quote(out) + " 2>" + Quote(err)).c_str());
  CommandResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = Slurp(out);
  r.err = Slurp(err);
  return r;
}

std::map<std::string, int> Otf2PrintCounts(const std::string& anchor) {
  CommandResult r = RunCommand(std::string(OTF2_PRINT) + " " + Quote(anchor));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // Event lines: KIND LOCATION TIMESTAMP ATTRIBUTES (the header and the
  // continuation lines of attributes do not match).
  static const std::regex kEvent(R"(^([A-Z_]+) +[0-9]+ +[0-9]+ )");
  std::map<std::string, int> counts;
  std::istringstream lines(r.out);
  std::smatch m;
  for (std::string line; std::getline(lines, line);)
    if (std::regex_search(line, m, kEvent)) ++counts[m[1]];
  return counts;
}

std::string SharedTestData() {
  // CI checks out ../shared beside the clone; so does the team's tree.
  return std::string(MACROSCOPE_SOURCE_DIR) + "/../shared/testdata";
}

}  // namespace macroscope::otf2::testing
