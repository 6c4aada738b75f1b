// Bad Chrome JSON: one clear line naming the file (and line, and column for
// syntax errors), exit 1, nothing on stdout, no output file left behind.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "test_helpers.h"

namespace macroscope::chrome {
namespace {

using testing::ExpectRefused;
using testing::Macroscope;
using testing::ReadText;
using testing::Scratch;
using testing::WriteText;


// The suite's own trace (tests on catapult's need the shared test data).
std::string SuiteTraceText() {
  const std::string file = Scratch("suite") + "/suite.json";
  testing::WriteSuiteTrace(file);
  return ReadText(file);
}

TEST(ChromeBadInput, TruncatedFile) {
  std::string text = SuiteTraceText();
  ASSERT_FALSE(text.empty());
  const std::string file = Scratch("truncated") + "/truncated.json";
  size_t cut = text.size() / 2;
  WriteText(file, text.substr(0, cut));
  size_t lines = std::count(text.begin(), text.begin() + cut, '\n') + 1;
  ExpectRefused(file, std::to_string(lines) + ": column ");
  ExpectRefused(file, "invalid JSON");
}

TEST(ChromeBadInput, FlippedByte) {
  std::string text = SuiteTraceText();
  size_t at = text.find(':', text.size() / 3);
  ASSERT_NE(at, std::string::npos);
  text[at] = ';';
  const std::string file = Scratch("flipped") + "/flipped.json";
  WriteText(file, text);
  size_t line = std::count(text.begin(), text.begin() + at, '\n') + 1;
  ExpectRefused(file, ":" + std::to_string(line) + ": column ");
}

// Events that cannot be used are skipped, not refused (chrome_lenient_test.cc);
// text that is not JSON (with its line and column) and a file without an
// event array still are.
TEST(ChromeBadInput, NotJsonOrNoEventArray) {
  struct Case {
    std::string file, text, message;
  };
  const std::vector<Case> cases{
      {"comma.json", "[{\"ph\":\"X\",\"ts\":1,\"dur\":2}\n {\"ph\":\"i\",\"ts\":3}]\n",
       "comma.json:2: column 2: invalid JSON: syntax error"},
      {"garbage.json", "[{\"ph\":\"X\",\"ts\":1,\"dur\":2},\n{\"ph\": nope}]\n", "garbage.json:2: column 9: invalid JSON"},
      {"no_array.json", "{\"traceEvents\": 3, \"ph\": 1}\n", "no_array.json:1: a JSON object without a \"traceEvents\" array"},
      {"no_event_key.json", "{\"ph\": [{\"ph\":\"i\",\"ts\":1}]}\n",
       "no_event_key.json:1: a JSON object without a \"traceEvents\" array"},
  };
  const std::string dir = Scratch("shapes");
  for (const Case& c : cases) {
    WriteText(dir + "/" + c.file, c.text);
    ExpectRefused(dir + "/" + c.file, c.message);
  }
}

}  // namespace
}  // namespace macroscope::chrome
