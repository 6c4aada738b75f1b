#include "test_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
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

std::set<int64_t> Otf2PrintTicks(const std::string& anchor) {
  CommandResult r = RunCommand(std::string(OTF2_PRINT) + " " + Quote(anchor));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  static const std::regex kEvent(R"(^[A-Z_]+ +[0-9]+ +([0-9]+) )");
  std::set<int64_t> ticks;
  std::istringstream lines(r.out);
  std::smatch m;
  for (std::string line; std::getline(lines, line);)
    if (std::regex_search(line, m, kEvent)) ticks.insert(std::stoll(m[1]));
  return ticks;
}

void Overwrite(const std::string& file, size_t offset, size_t count, char byte) {
  std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(static_cast<std::streamoff>(offset));
  for (size_t i = 0; i < count; ++i) f.put(byte);
}

std::set<int64_t> ModelTicks(const Trace& trace) {
  std::set<int64_t> ticks;
  const TimeBase& base = trace.time_base();
  for (const EntityStore& s : trace.stores())
    for (size_t i = 0; i < s.size(); ++i) {
      EXPECT_EQ(s.start[i], std::round(s.start[i])) << "not a whole tick";
      ticks.insert(ClockTicks(base, s.start[i]));
      if (!s.end.empty()) ticks.insert(ClockTicks(base, s.end[i]));
    }
  return ticks;
}

}  // namespace macroscope::otf2::testing
