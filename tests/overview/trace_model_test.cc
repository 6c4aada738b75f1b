// Metric values of the microscopic model, checked by hand on small traces:
// clipping of states to slices, nested states, counts, filters, errors.
#include "analysis/trace_model.h"

#include <gtest/gtest.h>

#include "model_comparison.h"
#include "small_trace.h"
#include "util/error.h"

namespace macroscope::analysis {
namespace {

using testing::ReadSmallTrace;

// p1: A on [0,3), B on [3,10); p2: A on [0,10) with C pushed on [2,4).
const char* kBody = R"(4 0 p1 S A
4 3 p1 S B
4 0 p2 S A
5 2 p2 S C
6 4 p2 S
7 1 p1 E tick
7 6 p1 E tick
7 7 p2 E tock
4 10 p1 S B
)";

double At(const MicroModel& m, const std::string& path, const std::string& type, int slice) {
  auto node = m.hierarchy().FindPath(path);
  EXPECT_TRUE(node.has_value()) << path;
  auto t = m.TypeIndex(type);
  EXPECT_TRUE(t.has_value()) << type;
  return m.Value(*node, *t, slice);
}

TEST(TraceModel, StateTimeIsClippedToSlices) {
  Trace trace = ReadSmallTrace(kBody);
  ModelRequest r;
  r.slices = 2;  // [0,5) and [5,10)
  MicroModel m = BuildModel(trace, r);
  EXPECT_EQ(m.types(), (std::vector<std::string>{"State:A", "State:B", "State:C"}));
  EXPECT_DOUBLE_EQ(At(m, "n1/p1", "State:A", 0), 3);
  EXPECT_DOUBLE_EQ(At(m, "n1/p1", "State:B", 0), 2);
  EXPECT_DOUBLE_EQ(At(m, "n1/p1", "State:B", 1), 5);
  // Nested: A counts its full overlap, C (pushed on [2,4)) its own.
  EXPECT_DOUBLE_EQ(At(m, "n1/p2", "State:A", 0), 5);
  EXPECT_DOUBLE_EQ(At(m, "n1/p2", "State:C", 0), 2);
  EXPECT_DOUBLE_EQ(At(m, "n1/p2", "State:C", 1), 0);
}

// Two state types of one name under different container types (the
// "Region" of CPU threads and of GPU streams) are one model type: the
// model was refused before ("duplicate type").
TEST(TraceModel, TypesOfOneNameAreOneModelType) {
  Trace trace = ReadSmallTrace(std::string(R"(0 G N GPU
1 SG G State
3 0 g1 G n1 g1
4 0 g1 SG A
4 4 g1 SG B
)") + kBody);
  ModelRequest r;
  r.slices = 2;
  MicroModel m = BuildModel(trace, r);
  EXPECT_EQ(m.types(), (std::vector<std::string>{"State:A", "State:B", "State:C"}));
  EXPECT_DOUBLE_EQ(At(m, "n1/g1", "State:A", 0), 4);
  EXPECT_DOUBLE_EQ(At(m, "n1/g1", "State:B", 0), 1);
  EXPECT_DOUBLE_EQ(At(m, "n1/g1", "State:B", 1), 5);
  EXPECT_DOUBLE_EQ(At(m, "n1/p1", "State:A", 0), 3);
}

TEST(TraceModel, RangeSubWindow) {
  Trace trace = ReadSmallTrace(kBody);
  ModelRequest r;
  r.slices = 4;
  r.start = 2;
  r.end = 6;  // slices of width 1
  MicroModel m = BuildModel(trace, r);
  EXPECT_DOUBLE_EQ(At(m, "n1/p1", "State:A", 0), 1);  // [2,3)
  EXPECT_DOUBLE_EQ(At(m, "n1/p1", "State:B", 0), 0);
  EXPECT_DOUBLE_EQ(At(m, "n1/p1", "State:B", 1), 1);
  EXPECT_DOUBLE_EQ(At(m, "n1/p2", "State:C", 1), 1);  // [3,4)
}

TEST(TraceModel, CountsAndMeanDuration) {
  Trace trace = ReadSmallTrace(kBody);
  ModelRequest r;
  r.slices = 2;
  r.metric = Metric::kEventCount;
  MicroModel events = BuildModel(trace, r);
  EXPECT_DOUBLE_EQ(At(events, "n1/p1", "Event:tick", 0), 1);
  EXPECT_DOUBLE_EQ(At(events, "n1/p1", "Event:tick", 1), 1);
  EXPECT_DOUBLE_EQ(At(events, "n1/p2", "Event:tock", 1), 1);
  r.metric = Metric::kStateCount;
  MicroModel starts = BuildModel(trace, r);
  EXPECT_DOUBLE_EQ(At(starts, "n1/p1", "State:B", 0), 1);  // the one at 10 is outside [0,10)
  r.metric = Metric::kMeanStateDuration;
  MicroModel mean = BuildModel(trace, r);
  EXPECT_DOUBLE_EQ(At(mean, "n1/p1", "State:B", 1), 5);
}

TEST(TraceModel, FiltersAndErrors) {
  Trace trace = ReadSmallTrace(kBody);
  ModelRequest r;
  r.slices = 2;
  r.containers = {"n1/p2"};
  MicroModel m = BuildModel(trace, r);
  EXPECT_DOUBLE_EQ(At(m, "n1/p2", "State:A", 0), 5);
  EXPECT_DOUBLE_EQ(At(m, "n1/p1", "State:A", 0), 0);
  r.containers = {"n1/nope"};
  EXPECT_THROW(BuildModel(trace, r), UserError);
  r.containers = {};
  r.types = {"Nope"};
  EXPECT_THROW(BuildModel(trace, r), UserError);
  r.types = {};
  r.start = -5;
  EXPECT_THROW(BuildModel(trace, r), UserError);
  r.start = 3;
  r.end = 3;
  EXPECT_THROW(BuildModel(trace, r), UserError);
  r.start.reset();
  r.end.reset();
  r.slices = 0;
  EXPECT_THROW(BuildModel(trace, r), UserError);
}

// Stores spread over threads give the one-thread model to the bit, for
// every metric, on a generated trace of every entity kind.
TEST(TraceModel, ThreadsGiveTheSameModel) {
  Trace trace;
  paje::ReadPajeText(testing::EveryKindTrace(30000), "generated.trace", {}, trace);
  for (const std::string& name : MetricNames()) {
    ModelRequest r;
    r.metric = *MetricFromName(name);
    r.slices = 37;
    MicroModel one = BuildModel(trace, r);
    r.threads = 3;
    MicroModel three = BuildModel(trace, r);
    EXPECT_GT(one.NonZeroSeriesCount(), 0) << name;
    testing::ExpectSameModel(one, three, name);
  }
}

}  // namespace
}  // namespace macroscope::analysis
