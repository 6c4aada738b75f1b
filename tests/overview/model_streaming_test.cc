// The model built while a Pajé file is read (streaming, model_accumulator.h)
// is the whole reading's model to the bit: for every metric, with nested
// states handed over after the states they hold, with filters; and
// `aggregate` and `stats` print the same from a file (streamed) as from
// standard input (read whole), also when the file's last line does not
// tell its end.
#include <gtest/gtest.h>

#include <string>

#include "analysis/model_accumulator.h"
#include "analysis/trace_model.h"
#include "formats/paje/last_time.h"
#include "formats/paje/reader.h"
#include "model_comparison.h"
#include "small_trace.h"
#include "test_support.h"

namespace macroscope::analysis {
namespace {

using testing::ExpectSameModel;
using testing::Quote;

MicroModel Streamed(const std::string& path, const ModelRequest& request, size_t drain_interval) {
  const std::optional<double> end = paje::LastEventTime(path, false);
  EXPECT_TRUE(end.has_value());
  ModelAccumulator accumulator(request.metric, Grid(0, end.value_or(1), request.slices));
  ModelSink sink(accumulator);
  paje::ReadOptions options;
  options.simulator.sink = &sink;
  options.simulator.drain_interval = drain_interval;
  Trace trace;
  paje::ReadPaje({path}, options, trace, 1);
  EXPECT_EQ(trace.end_time(), end.value_or(1));
  return accumulator.Model(trace, request);
}

TEST(ModelStreaming, StreamedModelIsTheWholeReadings) {
  testing::TempDir dir;
  const std::string path = dir.path() + "/every_kind.trace";
  testing::WriteText(path, testing::EveryKindTrace(30000));
  Trace whole;
  paje::ReadPaje({path}, {}, whole, 1);
  for (const std::string& name : MetricNames()) {
    ModelRequest r;
    r.metric = *MetricFromName(name);
    r.slices = 37;
    const MicroModel expected = BuildModel(whole, r);
    EXPECT_GT(expected.NonZeroSeriesCount(), 0) << name;
    // A small interval hands states pushed over others out of their order.
    for (size_t interval : {size_t{50}, size_t{1} << 20})
      ExpectSameModel(expected, Streamed(path, r, interval), name + " interval " + std::to_string(interval));
  }
  ModelRequest filtered;
  filtered.slices = 11;
  filtered.types = {"S"};
  filtered.containers = {"c1"};
  ExpectSameModel(BuildModel(whole, filtered), Streamed(path, filtered, 50), "filtered");
}

// Entities in any order and any split sum to the same model: here one at
// a time, last first, against all at once, on states whose times are
// short decimals (their sums round differently in another order).
TEST(ModelStreaming, AnyOrderGivesTheSameModel) {
  std::string body;
  for (int i = 0; i < 300; ++i)
    body += "4 " + std::to_string(i * 0.1 + i % 7 * 0.013) + " p" + std::to_string(1 + i % 2) + " S " +
            (i % 3 == 0 ? "A" : "B") + "\n";
  Trace trace = testing::ReadSmallTrace(body);
  for (Metric metric : {Metric::kStateTime, Metric::kMeanStateDuration, Metric::kStateCount}) {
    ModelRequest r;
    r.metric = metric;
    r.slices = 7;
    const Grid grid(trace.start_time(), trace.end_time(), r.slices);
    ModelAccumulator whole(metric, grid), reversed(metric, grid);
    for (uint32_t index = 0; index < trace.stores().size(); ++index) {
      const EntityStore& s = trace.stores()[index];
      whole.Add(index, EntityChunk::Of(s, 0, s.size()));
      for (size_t i = s.size(); i-- > 0;) reversed.Add(index, EntityChunk::Of(s, i, i + 1));
    }
    const MicroModel expected = whole.Model(trace, r);
    EXPECT_GT(expected.NonZeroSeriesCount(), 0);
    ExpectSameModel(expected, reversed.Model(trace, r), "reversed");
  }
}

// `command` (aggregate, stats) of a file streams; of standard input
// (`input`, the file's text by default) it reads the trace whole.
void ExpectSameFromFileAndInput(const std::string& command, const std::string& path, std::string input = "") {
  if (input.empty()) input = path;
  const testing::CommandResult streamed = testing::Macroscope(command + " " + Quote(path));
  const testing::CommandResult whole = testing::Macroscope(command + " - < " + Quote(input));
  ASSERT_EQ(streamed.exit_code, 0) << streamed.err;
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  EXPECT_EQ(streamed.out, whole.out) << command;
}

TEST(ModelStreaming, AggregateAndStatsOfAFileAreTheWholeReadings) {
  testing::TempDir dir;
  const std::string path = dir.path() + "/every_kind.trace";
  testing::WriteText(path, testing::EveryKindTrace(20000));
  ExpectSameFromFileAndInput("aggregate --no-cache --mode temporal --slices 30 --p 0.3", path);
  ExpectSameFromFileAndInput("aggregate --no-cache --mode spatiotemporal --slices 20 --p 0.6 --metric variable-mean",
                             path);
  ExpectSameFromFileAndInput("aggregate --no-cache --mode temporal --slices 20 --plist --metric link-count", path);
  ExpectSameFromFileAndInput("stats --format csv", path);
  ExpectSameFromFileAndInput("stats", path);
}

// A PajeTraceFile defined after the header names a file read after this
// one: the last line does not tell the end, and the file is read again
// whole (standard input does not follow PajeTraceFile: it gets the two
// files' text).
TEST(ModelStreaming, AFileEndingElsewhereIsReadAgainWhole) {
  testing::TempDir dir;
  const std::string trace = testing::EveryKindTrace(5000);
  // The other file: the trace's last state change again, later (ID TIME
  // ...; the trace ends with pops, which would find their stacks empty).
  const size_t from = trace.rfind("\n10 ") + 1;
  const std::string last = trace.substr(from, trace.find('\n', from) + 1 - from);
  const size_t time = last.find(' ') + 1, after = last.find(' ', time);
  const std::string more = last.substr(0, time) + std::to_string(std::stod(last.substr(time, after - time)) + 1000) +
                           last.substr(after);
  testing::WriteText(dir.path() + "/more.trace", more);
  const std::string main = trace + "%EventDef PajeTraceFile 99\n% Container string\n% Type string\n" +
                           "% Filename string\n%EndEventDef\n99 0 0 " + dir.path() + "/more.trace\n" + last;
  testing::WriteText(dir.path() + "/main.trace", main);
  testing::WriteText(dir.path() + "/both.trace", main + more);
  ASSERT_TRUE(paje::LastEventTime(dir.path() + "/main.trace", false).has_value());
  ExpectSameFromFileAndInput("aggregate --no-cache --mode temporal --slices 30 --p 0.3", dir.path() + "/main.trace",
                             dir.path() + "/both.trace");
  ExpectSameFromFileAndInput("stats --format csv", dir.path() + "/main.trace", dir.path() + "/both.trace");
}

}  // namespace
}  // namespace macroscope::analysis
