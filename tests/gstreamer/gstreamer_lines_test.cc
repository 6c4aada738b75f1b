// Hand-written GStreamer debug lines: the fields of a message, lines that
// are not messages, and the bad input that is refused (FILE:LINE, exit 1,
// nothing written).
#include <filesystem>
#include <string>
#include <vector>

#include "formats/gstreamer/gstreamer_reader.h"
#include "test_support.h"
#include "util/error.h"

namespace macroscope::gstreamer {
namespace {

using testing::Macroscope;
using testing::Quote;
using testing::TempDir;
using testing::WriteText;

TEST(GstreamerLines, FieldsOfAMessage) {
  TempDir dir;
  const std::string log = dir.path() + "/fields.log";
  WriteText(log,
            "0:00:01.000000001 42 0x1 INFO             GST_INIT gst.c:576:init_pre: plain text\n"
            "0:00:01.000000002 42 0x1 DEBUG  basesrc gst/a:b.c:12:ns::Klass::run:<src0:pad> text: with <b> and : \r\n"
            "\n"
            "0:00:01.000000003 42 0x1 ERROR  default x.c:3:f:\n"
            "10:00:00.000000000 42 0x2 \x1b[31mWARN   \x1b[00m \x1b[1;32m cat\x1b[00m y.c:4:g:<obj>\x1b[00m coloured\n");
  auto r = Macroscope("dump -u -l 9 " + Quote(log));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  // dump's order: containers depth first, a container's states then its events.
  EXPECT_EQ(r.out,
            "Container, 0, 0, 0.000000000, 36000.000000000, 36000.000000000, 0\n"
            "Container, 0, Process, 1.000000001, 36000.000000000, 35998.999999999, Process 42, 42\n"
            "Container, Process 42, Thread, 36000.000000000, 36000.000000000, 0.000000000, 0x2\n"
            "State, 0x2, Level, 36000.000000000, 36000.000000000, 0.000000000, 0.000000000, WARN, cat\n"
            "Event, 0x2, Message, 36000.000000000, cat, WARN, y.c, 4, g, obj, coloured\n"
            "Container, Process 42, Thread, 1.000000001, 36000.000000000, 35998.999999999, 0x1\n"
            "State, 0x1, Level, 1.000000001, 1.000000002, 0.000000001, 0.000000000, INFO, GST_INIT\n"
            "State, 0x1, Level, 1.000000002, 1.000000003, 0.000000001, 0.000000000, DEBUG, basesrc\n"
            "State, 0x1, Level, 1.000000003, 36000.000000000, 35998.999999997, 0.000000000, ERROR, default\n"
            "Event, 0x1, Message, 1.000000001, GST_INIT, INFO, gst.c, 576, init_pre, , plain text\n"
            "Event, 0x1, Message, 1.000000002, basesrc, DEBUG, gst/a:b.c, 12, ns::Klass::run, src0:pad, "
            "text: with <b> and : \n"
            "Event, 0x1, Message, 1.000000003, default, ERROR, x.c, 3, f, , \n");
}

TEST(GstreamerLines, OtherLinesSkippedAndCounted) {
  TempDir dir;
  const std::string log = dir.path() + "/mixed.log";
  WriteText(log,
            "Setting pipeline to PAUSED ...\n"
            "0:00:00.000000100 7 0x1 INFO  cat a.c:1:f: one\n"
            "0:00:00.000000200 7 0x1 LEVEL10  cat a.c:1:f: an unknown level\n"
            "  a continuation line\n"
            "0:00:00.000000300 7 0x1 INFO  cat a.c:1:f:<cut object\n"
            "0:00:00.000000400 7 0x1 INFO  cat a.c");
  auto r = Macroscope("info " + Quote(log));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "macroscope: warning: " + log + ": 5 lines that are not GStreamer debug messages skipped (the first: " +
                       log + ":1)\n");
}

// Refused by `info` and by `convert`, which leaves no output behind.
void ExpectRefusal(const std::string& file, const std::string& message) {
  auto r = Macroscope("info " + Quote(file));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "macroscope: " + message + "\n");
  auto c = Macroscope("convert " + Quote(file) + " -o " + Quote(file + ".json"));
  EXPECT_EQ(c.exit_code, 1);
  EXPECT_FALSE(std::filesystem::exists(file + ".json"));
}

TEST(GstreamerBadInput, Refused) {
  TempDir dir;
  const std::string d = dir.path() + "/";
  WriteText(d + "backwards.log",
            "0:00:00.000000200 7 0x1 INFO  cat a.c:1:f: one\n"
            "0:00:00.000000100 7 0x2 INFO  cat a.c:1:f: another thread, earlier: fine\n"
            "0:00:00.000000100 7 0x1 INFO  cat a.c:1:f: back in time\n");
  ExpectRefusal(d + "backwards.log", d + "backwards.log:3: time goes backwards for type 'Level' in container '0x1' "
                                         "(pj_dump: trace is not time-ordered)");
  WriteText(d + "far.log",
            "0:00:00.000000200 7 0x1 INFO  cat a.c:1:f: one\n"
            "2502:00:00.000000000 7 0x1 INFO  cat a.c:1:f: 104 days later\n");
  ExpectRefusal(d + "far.log", d + "far.log:2: a time 9007200000000000 ticks from the trace's first event is beyond 2^53 "
                                   "ticks, which macroscope cannot hold exactly");
  // Hours beyond 64 bits of nanoseconds: never wrapped around (2^64 + 1
  // hours would be 1 hour), refused with their line.
  for (const char* hours : {"18446744073709551617", "99999999999999999999", "5124095576030431"}) {
    WriteText(d + "hours.log", "0:00:00.000000200 7 0x1 INFO  cat a.c:1:f: one\n" + std::string(hours) +
                                   ":00:00.000000000 7 0x1 INFO  cat a.c:1:f: later\n");
    ExpectRefusal(d + "hours.log", d + "hours.log:2: a time of 2^63 ns or more, beyond 2^53 ticks, which macroscope "
                                       "cannot hold exactly");
  }
  WriteText(d + "empty.log", "");
  WriteText(d + "output.log", "Setting pipeline to PAUSED ...\nPipeline is PREROLLING ...\n");
  for (const char* name : {"empty.log", "output.log"}) {
    auto r = Macroscope("info " + Quote(d + name));
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err.rfind("macroscope: " + d + name + ": not a trace in any supported format (", 0), 0u) << r.err;
  }
}

// The reader itself refuses a text without messages (detection keeps such
// a file from reaching it through the commands).
TEST(GstreamerBadInput, NoMessageRefusedByTheReader) {
  for (const std::string text : {"", "Setting pipeline to PAUSED ...\n\nFreeing pipeline ...\n"}) {
    Trace trace;
    try {
      ReadGstreamerText(text, "out.log", trace);
      ADD_FAILURE() << "read without a message";
    } catch (const UserError& e) {
      EXPECT_EQ(std::string(e.what()).rfind(text.empty() ? "out.log:1: no GStreamer debug message in 0 line(s)"
                                                         : "out.log:3: no GStreamer debug message in 3 line(s)",
                                            0),
                0u)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace macroscope::gstreamer
