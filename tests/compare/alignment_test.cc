#include "analysis/compare/alignment.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <regex>
#include <sstream>

#include "compare_test_traces.h"
#include "test_support.h"
#include "util/error.h"

namespace macroscope::analysis::compare {
namespace {

using testing::ReadWhole;
using testing::SharedTestData;

TEST(Alignment, Parsed) {
  EXPECT_EQ(ParseAlignment("start", "--align").mode, AlignMode::kStart);
  EXPECT_EQ(ParseAlignment("end", "--align").mode, AlignMode::kEnd);
  EXPECT_EQ(ParseAlignment("none", "--align").mode, AlignMode::kNone);
  const Alignment event = ParseAlignment("event:MPI_Send", "--align");
  EXPECT_EQ(event.mode, AlignMode::kEvent);
  EXPECT_EQ(event.event, "MPI_Send");
  for (const char* bad : {"", "begin", "event:", "Start"}) {
    try {
      ParseAlignment(bad, "--align");
      FAIL() << bad;
    } catch (const UserError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("--align: '" + std::string(bad) + "'", 0), 0u) << e.what();
    }
  }
}

// otf2-print's timer: ticks per second, the first event's timestamp (the
// global offset), and the first ENTER of region `region`.
struct Otf2Times {
  int64_t ticks_per_second = 0, offset = 0, length = 0, first_enter = -1;
};
Otf2Times PrintedTimes(const std::string& anchor, const std::string& region) {
  Otf2Times t;
  const std::string defs = testing::RunCommand(std::string(OTF2_PRINT) + " -G " + testing::Quote(anchor)).out;
  std::smatch m;
  const std::regex clock(R"(Ticks per Seconds: (\d+), Global Offset: (\d+), Length: (\d+))");
  if (std::regex_search(defs, m, clock)) {
    t.ticks_per_second = std::stoll(m[1]);
    t.offset = std::stoll(m[2]);
    t.length = std::stoll(m[3]);
  }
  std::istringstream events(testing::RunCommand(std::string(OTF2_PRINT) + " " + testing::Quote(anchor)).out);
  const std::regex enter("^ENTER +\\d+ +(\\d+) +Region: \"" + region + "\"");
  for (std::string line; std::getline(events, line);) {
    if (!std::regex_search(line, m, enter)) continue;
    const int64_t tick = std::stoll(m[1]);
    if (t.first_enter < 0 || tick < t.first_enter) t.first_enter = tick;
  }
  return t;
}

int64_t Nanoseconds(int64_t ticks, int64_t per_second) {
  EXPECT_LT(ticks, int64_t{9000000000});  // ticks * 10^9 fits in 63 bits
  return (ticks * 1000000000 + per_second / 2) / per_second;
}

TEST(Alignment, OriginsOfAScorePTraceAgainstOtf2Print) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  const std::string anchor = SharedTestData() + "/otf2/ping-pong-otf2/traces.otf2";
  const Otf2Times printed = PrintedTimes(anchor, "MPI_Send");
  ASSERT_GT(printed.ticks_per_second, 0);
  ASSERT_GT(printed.first_enter, 0);
  const Trace a = ReadWhole({anchor});
  const Trace b = ReadWhole({SharedTestData() + "/otf2/ping-pong-otf2-papi/traces.otf2"});

  // Start: each trace's start, the span the shorter run's.
  const AlignedSpan start = AlignRuns(a, "A", a, "A", Alignment{});
  EXPECT_EQ(start.a_origin, a.start_time());
  EXPECT_EQ(start.span_ns, Nanoseconds(printed.length, printed.ticks_per_second));
  const AlignedSpan both = AlignRuns(a, "A", b, "B", Alignment{});
  EXPECT_EQ(both.b_origin, b.start_time());
  EXPECT_EQ(both.span_ns, std::min(AlignedNanoseconds(a, a.start_time(), a.end_time()),
                                   AlignedNanoseconds(b, b.start_time(), b.end_time())));

  // The span both cover starts at the starts.
  EXPECT_EQ(start.a_start, a.start_time());
  EXPECT_EQ(both.a_start, a.start_time());
  EXPECT_EQ(both.b_start, b.start_time());

  // End: aligned times up to 0; the trace's start lies its length before.
  const AlignedSpan end = AlignRuns(a, "A", a, "A", Alignment{AlignMode::kEnd, {}});
  EXPECT_EQ(end.a_origin, a.end_time());
  EXPECT_EQ(AlignedNanoseconds(a, end.a_origin, a.start_time()), -Nanoseconds(printed.length, printed.ticks_per_second));
  // The span both cover is the trace whole: from its start, otf2-print's length before its end.
  EXPECT_EQ(end.a_start, a.start_time());
  EXPECT_EQ(end.a_start, end.a_origin - static_cast<double>(printed.length));
  // Two runs aligned at their ends: the common span starts span_ns before each end.
  const AlignedSpan ends = AlignRuns(a, "A", b, "B", Alignment{AlignMode::kEnd, {}});
  EXPECT_EQ(AlignedNanoseconds(a, ends.a_origin, ends.a_start), -ends.span_ns);
  EXPECT_EQ(AlignedNanoseconds(b, ends.b_origin, ends.b_start), -ends.span_ns);
  EXPECT_GE(ends.a_start, a.start_time());
  EXPECT_GE(ends.b_start, b.start_time());

  // Event: the first MPI_Send's entry, otf2-print's timestamp from the offset.
  const AlignedSpan send = AlignRuns(a, "A", a, "A", Alignment{AlignMode::kEvent, "MPI_Send"});
  EXPECT_EQ(AlignedNanoseconds(a, a.start_time(), send.a_origin),
            Nanoseconds(printed.first_enter - printed.offset, printed.ticks_per_second));
  // The same trace on both sides covers the same aligned times, wherever 0 is.
  EXPECT_EQ(send.span_ns, start.span_ns);
  EXPECT_EQ(send.a_start, a.start_time());

  // None: the same clock read as it is in both.
  const AlignedSpan none = AlignRuns(a, "A", a, "A", Alignment{AlignMode::kNone, {}});
  EXPECT_EQ(none.a_origin, none.b_origin);
  EXPECT_EQ(none.span_ns, start.span_ns);
}

TEST(Alignment, AnEventAbsentFromOneTraceNamesIt) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  const Trace a = ReadWhole({SharedTestData() + "/otf2/ping-pong-otf2/traces.otf2"});
  const Trace b = ReadWhole({SharedTestData() + "/otf2/ping-pong-otf2-papi/traces.otf2"});
  try {
    AlignRuns(a, "run-a", b, "run-b", Alignment{AlignMode::kEvent, "NOPE"});
    FAIL() << "no error";
  } catch (const UserError& e) {
    EXPECT_EQ(std::string(e.what()), "--align event:NOPE: run-a has no event or state named 'NOPE'");
  }
}

}  // namespace
}  // namespace macroscope::analysis::compare
