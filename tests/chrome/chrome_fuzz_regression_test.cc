// Inputs the fuzz target (fuzz/chrome_reader_fuzzer) or the readers' audit
// found to escape the reader as a library exception (exit 2, "internal
// error") or worse; their files are fuzz/corpus/chrome/regression-*.json.
// Through the CLI now: refused with one line naming the file (exit 1), or
// read (exit 0).
#include <algorithm>
#include <filesystem>
#include <string>

#include "test_helpers.h"

namespace macroscope::chrome {
namespace {

using testing::ExpectRefused;
using testing::Macroscope;
using testing::Scratch;

// A copy of the committed regression input, in a scratch folder.
std::string Regression(const std::string& name) {
  const std::string file = Scratch("fuzz_" + name) + "/" + name;
  std::filesystem::copy_file(std::string(MACROSCOPE_SOURCE_DIR) + "/fuzz/corpus/chrome/" + name, file);
  return file;
}

// Refused by info and convert with one line naming the file, line 1.
void ExpectRefusedAtLine1(const std::string& name, const std::string& message_part) {
  const std::string file = Regression(name);
  ExpectRefused(file, message_part);
  EXPECT_EQ(Macroscope("info " + file).err.rfind("macroscope: " + file + ":1: ", 0), 0u);
}

// Read (exit 0); `warning_part`, when given, in what it printed on stderr.
void ExpectRead(const std::string& name, const std::string& warning_part = "") {
  auto r = Macroscope("info " + Regression(name));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(warning_part), std::string::npos) << r.err;
}

// "ts": 1e999 — nlohmann's parser throws out_of_range (not parse_error).
TEST(ChromeFuzzRegression, NumberTooLargeForADouble) {
  ExpectRefusedAtLine1("regression-number-overflow.json", "column 17: a number too large for a double");
}

// Nesting that dump() would follow one stack frame per level: the event
// is not built, but skipped.
TEST(ChromeFuzzRegression, DeepNesting) {
  ExpectRead("regression-deep-nesting.json", "1 event skipped: 1 nested deeper than 1000 levels (byte 1)");
}

// "ts": 1e308, "dur": 1e308 (their sum was infinite): a "ts" beyond what
// the model holds (docs/time.md), skipped.
TEST(ChromeFuzzRegression, EndOfSliceBeyondDoubles) {
  ExpectRead("regression-ts-plus-dur-overflow.json",
             "1 event skipped: 1 with a \"ts\" 2^53 ns or more from the first time (byte 1)");
}

// Fields of an unexpected type, which nlohmann's value() throws on.
TEST(ChromeFuzzRegression, FlowFlagsNotBooleans) { ExpectRead("regression-flow-flag-not-bool.json"); }
TEST(ChromeFuzzRegression, FlowCategoryNotAString) { ExpectRead("regression-flow-cat-not-string.json"); }

// Sort indexes beyond int64 (the conversion was undefined).
TEST(ChromeFuzzRegression, SortIndexBeyondInt64) { ExpectRead("regression-sort-index-overflow.json"); }

}  // namespace
}  // namespace macroscope::chrome
