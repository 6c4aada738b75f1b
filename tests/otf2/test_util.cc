#include "test_util.h"

#include <gtest/gtest.h>

#include <regex>
#include <sstream>

namespace macroscope::otf2::testing {

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

}  // namespace macroscope::otf2::testing
