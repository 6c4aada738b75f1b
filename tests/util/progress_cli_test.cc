// The progress line as a person sees it: `macroscope` reading a trace with
// standard error on a terminal shows it (bytes of the Pajé file, entities)
// and erases it at the end; with standard error piped there is none, and
// standard output is the same either way. The delay before the line shows
// is set to 0 so that a small trace shows it.
#include <gtest/gtest.h>

#include <string>

#include "test_support.h"

namespace macroscope {
namespace {

using testing::Macroscope;
using testing::MacroscopeOnTerminal;
using testing::Quote;
using testing::TempDir;
using testing::WriteText;

class ProgressCli : public ::testing::Test {
 protected:
  void SetUp() override {
    trace_ = dir_.path() + "/gen.paje";
    auto r = Macroscope("generate --events 200000 --punctual");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    WriteText(trace_, r.out);
  }
  TempDir dir_;
  std::string trace_;
};

TEST_F(ProgressCli, ShownOnATerminalThenErased) {
  for (const std::string command : {"info", "stats", "dump -q"}) {
    SCOPED_TRACE(command);
    const auto terminal = MacroscopeOnTerminal(command + " " + Quote(trace_), "MACROSCOPE_PROGRESS_DELAY=0");
    ASSERT_EQ(terminal.exit_code, 0) << terminal.err;
    const std::string line = "\rreading " + trace_ + ": ";
    EXPECT_NE(terminal.err.find(line), std::string::npos) << terminal.err;
    EXPECT_NE(terminal.err.find(" of "), std::string::npos) << terminal.err;  // a Pajé file's bytes
    // Erased at the end: the terminal keeps only the command's own output.
    EXPECT_TRUE(terminal.err.ends_with("\r\x1b[K")) << terminal.err;

    const auto piped = Macroscope(command + " " + Quote(trace_));
    ASSERT_EQ(piped.exit_code, 0) << piped.err;
    EXPECT_EQ(piped.err, "");
    EXPECT_EQ(piped.out, terminal.out);
  }
}

TEST_F(ProgressCli, NotShownForAShortJob) {
  // The default delay: a job far shorter than a second shows nothing.
  const std::string tiny = dir_.path() + "/tiny.paje";
  const auto generated = Macroscope("generate --events 100");
  ASSERT_EQ(generated.exit_code, 0) << generated.err;
  WriteText(tiny, generated.out);
  const auto terminal = MacroscopeOnTerminal("info " + Quote(tiny));
  ASSERT_EQ(terminal.exit_code, 0) << terminal.err;
  EXPECT_EQ(terminal.err.find("reading"), std::string::npos) << terminal.err;
}

}  // namespace
}  // namespace macroscope
