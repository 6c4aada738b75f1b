// Workflow: links checked as they are made, broadcast, end of stream, and
// errors and cancellation that stop every module without hanging.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <thread>

#include "engine_test_modules.h"

namespace macroscope::pipeline::engine_test {
namespace {

TEST(Workflow, RefusesTwoModulesOfOneName) {
  Workflow w;
  AddModule<Sink>(w, "x");
  EXPECT_EQ(ErrorOf([&] { AddModule<Sink>(w, "x"); }), "workflow: two modules named 'x'");
}

TEST(Workflow, RefusesALinkToAMissingModuleOrPort) {
  Workflow w;
  AddModule<Generate>(w, "gen", 10);
  AddModule<Sink>(w, "count");
  EXPECT_TRUE(Contains(ErrorOf([&] { w.Link("gen", "out", "nobody", "in"); }), "no module 'nobody'"));
  EXPECT_TRUE(Contains(ErrorOf([&] { w.Link("ghost", "out", "count", "in"); }), "no module 'ghost'"));
  EXPECT_EQ(ErrorOf([&] { w.Link("gen", "out", "count", "inn"); }),
            "module 'count' has no input 'inn'; its inputs: in");
  EXPECT_EQ(ErrorOf([&] { w.Link("gen", "rows", "count", "in"); }),
            "module 'gen' has no output 'rows'; its outputs: out");
  // An input is not an output.
  EXPECT_TRUE(Contains(ErrorOf([&] { w.Link("count", "in", "count", "in"); }), "has no output 'in'"));
}

TEST(Workflow, RefusesALinkBetweenStreamTypesNamingBothPorts) {
  Workflow w;
  AddModule<Generate>(w, "read", 10);
  AddModule<RowSink>(w, "plot");
  EXPECT_EQ(ErrorOf([&] { w.Link("read", "out", "plot", "in"); }),
            "cannot link 'read.out' (entities) to 'plot.in' (rows)");
  EXPECT_TRUE(w.links().empty());
}

TEST(Workflow, RefusesAnInputLinkedTwice) {
  Workflow w;
  AddModule<Generate>(w, "a", 10);
  AddModule<Generate>(w, "b", 10);
  AddModule<Sink>(w, "sink");
  w.Link("a", "out", "sink", "in");
  EXPECT_TRUE(Contains(ErrorOf([&] { w.Link("b", "out", "sink", "in"); }), "'sink.in' is already linked to 'a.out'"));
}

TEST(Workflow, RefusesToRunWithAnUnlinkedInput) {
  Workflow w;
  AddModule<Sink>(w, "sink");
  EXPECT_EQ(ErrorOf([&] { w.Run(); }), "input 'sink.in' is not linked");
}

TEST(Workflow, RunsAChainToItsEnd) {
  Workflow w(2);
  AddModule<Generate>(w, "gen", 100000, 64);
  Sink& sink = AddModule<Sink>(w, "sink");
  w.Link("gen", "out", "sink", "in");
  EXPECT_EQ(RunWithin(w), "");
  ASSERT_EQ(sink.numbers.size(), 100000u);
  for (uint64_t i = 0; i < sink.numbers.size(); ++i) ASSERT_EQ(sink.numbers[i], i);
}

TEST(Workflow, AnUnlinkedOutputDropsItsBatches) {
  Workflow w(1);
  AddModule<Generate>(w, "gen", 10000, 10);
  EXPECT_EQ(RunWithin(w), "");
}

TEST(Workflow, BroadcastsOneOutputToEveryLinkedInputWithoutCopies) {
  Workflow w(3);
  AddModule<Generate>(w, "gen", 20000, 50);
  Sink& a = AddModule<Sink>(w, "a");
  Sink& b = AddModule<Sink>(w, "b");
  Sink& c = AddModule<Sink>(w, "c");
  for (const char* sink : {"a", "b", "c"}) w.Link("gen", "out", sink, "in");
  EXPECT_EQ(RunWithin(w), "");
  for (const Sink* s : {&a, &b, &c}) {
    ASSERT_EQ(s->numbers.size(), 20000u) << s->name();
    for (uint64_t i = 0; i < s->numbers.size(); ++i) ASSERT_EQ(s->numbers[i], i) << s->name();
  }
  // The i-th batch each consumer read was the same slot of the one ring.
  EXPECT_EQ(a.batches, b.batches);
  EXPECT_EQ(a.batches, c.batches);
}

// A module failing mid-chain, with its producer blocked in Claim (tiny
// links, long stream) and its consumer blocked in Peek.
TEST(Workflow, AFailingModuleStopsTheWorkflowWithItsMessage) {
  Workflow w(1);
  AddModule<Generate>(w, "gen", 10000000, 10);
  AddModule<Fail>(w, "bad", 50, "out of cheese");
  Sink& sink = AddModule<Sink>(w, "sink");
  w.Link("gen", "out", "bad", "in");
  w.Link("bad", "out", "sink", "in");
  EXPECT_EQ(RunWithin(w), "module 'bad': out of cheese");
  EXPECT_LE(sink.numbers.size(), 500u);  // the stop is immediate: some may not arrive
}

TEST(Workflow, AFailingFirstBatchAndAFailingSinkStopEverything) {
  for (size_t at : {0, 3}) {
    Workflow w(2);
    AddModule<Generate>(w, "gen", 10000000, 10);
    Sink& other = AddModule<Sink>(w, "other");
    AddModule<Fail>(w, "bad", at, "no");
    w.Link("gen", "out", "other", "in");
    w.Link("gen", "out", "bad", "in");  // bad's output is unlinked: a sink
    EXPECT_EQ(RunWithin(w), "module 'bad': no");
    EXPECT_LT(other.numbers.size(), 10000000u);
  }
}

TEST(Workflow, OnlyTheFirstFailureIsReported) {
  Workflow w(1);
  AddModule<Generate>(w, "gen", 10000000, 10);
  AddModule<Fail>(w, "first", 2, "first");
  AddModule<Fail>(w, "second", 1000, "second");
  w.Link("gen", "out", "first", "in");
  w.Link("first", "out", "second", "in");
  EXPECT_EQ(RunWithin(w), "module 'first': first");
}

// Stall -> Wait (engine_test_modules.h): a workflow that waits forever
// until cancelled.
void AddStallAndWait(Workflow& w) {
  AddModule<Stall>(w, "stall");
  AddModule<Wait>(w, "wait");
  w.Link("stall", "a", "wait", "a");
  w.Link("stall", "b", "wait", "b");
}

TEST(Workflow, CancelStopsAWorkflowThatWouldWaitForever) {
  Workflow w;
  AddStallAndWait(w);
  std::future<std::string> run = std::async(std::launch::async, [&w] { return RunWithin(w); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  auto start = std::chrono::steady_clock::now();
  w.Cancel();
  w.Cancel();  // idempotent
  EXPECT_EQ(run.get(), "workflow cancelled");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(Workflow, CancelBeforeRunStopsItAtOnce) {
  Workflow w;
  AddStallAndWait(w);
  w.Cancel();
  EXPECT_EQ(RunWithin(w), "workflow cancelled");
}

}  // namespace
}  // namespace macroscope::pipeline::engine_test
