// Bad Chrome JSON: one clear line naming the file (and line, and column for
// syntax errors), exit 1, nothing on stdout, no output file left behind.
#include <algorithm>
#include <filesystem>

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

TEST(ChromeBadInput, TimestampIsAString) {
  const std::string file = Scratch("ts_string") + "/ts_string.json";
  WriteText(file, "[\n{\"ph\":\"B\",\"pid\":1,\"tid\":1,\"ts\":1,\"name\":\"a\"},\n"
                  "{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":\"10\"}\n]\n");
  ExpectRefused(file, ":3: \"ts\" is not a number: \"10\"");
}

TEST(ChromeBadInput, EndWithoutBegin) {
  const std::string file = Scratch("e_without_b") + "/e_without_b.json";
  WriteText(file, "{\"traceEvents\": [\n{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":2,\"name\":\"a\"},\n"
                  "{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":5}\n]}\n");
  ExpectRefused(file, ":3: E (end of a slice) without a matching B");
}

TEST(ChromeBadInput, WrongShapes) {
  const std::string dir = Scratch("shapes");
  WriteText(dir + "/no_array.json", "{\"traceEvents\": 3, \"ph\": 1}\n");
  ExpectRefused(dir + "/no_array.json", "without a \"traceEvents\" array");
  WriteText(dir + "/not_object.json", "[\n{\"ph\":\"i\",\"ts\":1},\n 42\n]\n");
  ExpectRefused(dir + "/not_object.json", ":3: a trace event is not a JSON object");
  WriteText(dir + "/pid_object.json", "[{\"ph\":\"i\",\"ts\":1,\"pid\":{}}]\n");
  ExpectRefused(dir + "/pid_object.json", ":1: \"pid\" is neither a string nor a number");
}

}  // namespace
}  // namespace macroscope::chrome
