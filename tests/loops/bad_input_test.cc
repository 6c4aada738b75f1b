// Bad input gives exit 1 and a one-line message naming the position.
#include <string>

#include <gtest/gtest.h>

#include "loops/trace_text.h"
#include "run_command.h"
#include "util/error.h"

namespace macroscope::loops {
namespace {

using testing::RunCommand;

class BadInput : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = testing::ScratchDir(::testing::UnitTest::GetInstance()->current_test_info()->name()); }
  void TearDown() override { RunCommand("rm -rf '" + dir_ + "'"); }

  testing::CommandResult Loops(const std::string& content, const std::string& extra = "") {
    const std::string path = dir_ + "/trace.txt";
    testing::WriteText(path, content);
    return RunCommand(testing::Macroscope() + " loops " + path + " " + extra);
  }

  std::string dir_;
};

TEST_F(BadInput, JunkNamesLineAndColumn) {
  const auto result = Loops("1 2 3\n4 x5 6\n");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.output.find("trace.txt:2:3: not an integer 'x5'"), std::string::npos) << result.output;
}

TEST_F(BadInput, OverflowNamesLineAndColumn) {
  const auto result = Loops("1\n  9223372036854775808\n");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.output.find("trace.txt:2:3: integer out of range '9223372036854775808'"), std::string::npos)
      << result.output;
}

TEST_F(BadInput, EmptyFile) {
  const auto result = Loops("  \n\n");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.output.find("trace.txt:1:1: empty trace"), std::string::npos) << result.output;
}

TEST_F(BadInput, MissingFile) {
  const auto result = RunCommand(testing::Macroscope() + " loops " + dir_ + "/nothing.txt");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.output.find("nothing.txt"), std::string::npos) << result.output;
}

TEST_F(BadInput, BadOptions) {
  EXPECT_EQ(Loops("1 2 3", "--mode zz").exit_code, 1);
  EXPECT_EQ(Loops("1 2 3", "--tolerance 1.5").exit_code, 1);
  EXPECT_EQ(Loops("1 2 3", "--max-depth 0").exit_code, 1);
  EXPECT_EQ(Loops("1 2 3", "--emit xml").exit_code, 1);
  EXPECT_EQ(Loops("1 2 3", "--algorithm bottom-up --mode av").exit_code, 1);
}

TEST_F(BadInput, BinaryJunkStaysOneLine) {
  const auto result = Loops(std::string("12 \x01\x02\xff\xfe 3", 9));
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.output.find("trace.txt:1:4: not an integer"), std::string::npos) << result.output;
}

TEST(TraceText, ExtremesAndStdinName) {
  const auto values = ParseTrace("-9223372036854775808 9223372036854775807 +5\t-0", "<stdin>");
  ASSERT_EQ(values.size(), 4u);
  EXPECT_EQ(values[0], INT64_MIN);
  EXPECT_EQ(values[1], INT64_MAX);
  EXPECT_EQ(values[2], 5);
  EXPECT_EQ(values[3], 0);
  EXPECT_THROW(ParseTrace("-", "<stdin>"), UserError);
  EXPECT_THROW(ParseTrace("-9223372036854775809", "<stdin>"), UserError);
}

TEST(TraceText, StdinDash) {
  const auto result = RunCommand("printf '3 3 7 13 11 23 15 33 19 43 23 53' | " + testing::Macroscope() + " loops - --mode af");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("(6*t2 + 4)*t1 + 3"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace macroscope::loops
