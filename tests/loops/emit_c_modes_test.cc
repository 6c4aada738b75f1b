// The C program of every mode and of recurrences prints the trace back.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "run_command.h"

namespace macroscope::loops {
namespace {

struct Case {
  const char* name;
  const char* options;
  const char* trace;
};

class EmitCModes : public ::testing::TestWithParam<Case> {};

TEST_P(EmitCModes, CompiledProgramPrintsTheTrace) {
  const Case& c = GetParam();
  const std::string dir = testing::ScratchDir(std::string("emit_c_") + c.name);
  std::string trace = c.trace;
  for (char& ch : trace) ch = ch == ' ' ? '\n' : ch;
  testing::WriteText(dir + "/trace.txt", trace + "\n");
  const auto emit = testing::RunCommand(testing::Macroscope() + " loops " + dir + "/trace.txt " + c.options +
                                        " --emit c -o " + dir + "/model.c");
  ASSERT_EQ(emit.exit_code, 0) << emit.output;
  const auto compile = testing::RunCommand("cc -std=c99 -Wall -Wextra -Werror -O1 -o " + dir + "/model " + dir +
                                           "/model.c");
  ASSERT_EQ(compile.exit_code, 0) << compile.output;
  ASSERT_EQ(testing::RunCommand(dir + "/model > " + dir + "/out.txt").exit_code, 0);
  EXPECT_EQ(testing::RunCommand("cmp " + dir + "/trace.txt " + dir + "/out.txt").exit_code, 0);
  testing::RunCommand("rm -rf '" + dir + "'");
}

INSTANTIATE_TEST_SUITE_P(
    Modes, EmitCModes,
    ::testing::Values(
        Case{"af", "", "3 4 5 1 7 14 21 8 11 24 37 15 2 5 7 9 3 5 9 11 13 4 8 13 15 17 5 11 17 19 21 6"},
        Case{"av", "--mode av", "0 5 8 10 13 16 15 18 21 24 20 23 26 29 32"},
        Case{"df", "--mode df", "15 16 17 1 6 20 23 26 9 17 25 30 35 21 12 30 37 44 0 5 35 44 53 23 25"},
        // The seed's dv loop (for t2 = 0..t1: 120t1 - 120t2, then t1 + 1 other values).
        Case{"dv", "--mode dv", "0 7 120 0 3 9 240 120 0 4 1 8 360 240 120 0 2 2 6 5 480 360 240 120 0 1 9 3 7 4"},
        Case{"rpli", "--order 2", "0 2 2 1 3 3 14 8 51 16 206 27 819 41 3278 58 13107 78 52430 101"},
        Case{"extremes", "", "-9223372036854775808 9223372036854775807 0 -1 -9223372036854775808 5"}),
    [](const ::testing::TestParamInfo<Case>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace macroscope::loops
