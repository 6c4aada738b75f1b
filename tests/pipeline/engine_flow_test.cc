// The flow modules: limit, split, merge, collect, made through their
// ModuleInfo as a workflow file makes them.
#include <gtest/gtest.h>

#include <algorithm>

#include "engine_test_modules.h"
#include "pipeline/modules/modules.h"

namespace macroscope::pipeline::engine_test {
namespace {

Module& Make(Workflow& w, const ModuleInfo& info, const std::string& name, nlohmann::json params) {
  return w.Add(info.make(name, Params(name, std::move(params))));
}

std::vector<uint64_t> Range(uint64_t first, uint64_t end) {
  std::vector<uint64_t> v;
  for (uint64_t i = first; i < end; ++i) v.push_back(i);
  return v;
}

TEST(Limit, SkipsThenKeepsEntitiesNotBatchesWithTheirFields) {
  Workflow w(2);
  AddModule<Generate>(w, "gen", 100, 7, true);
  Make(w, LimitModule(), "limit", {{"skip", "5"}, {"keep", 10}});
  Sink& sink = AddModule<Sink>(w, "sink");
  w.Link("gen", "out", "limit", "in");
  w.Link("limit", "out", "sink", "in");
  EXPECT_EQ(RunWithin(w), "");
  EXPECT_EQ(sink.numbers, Range(5, 15));
  EXPECT_EQ(std::vector<uint64_t>(sink.field_values.begin(), sink.field_values.end()), Range(5, 15));
}

// The limit stops reading after 10 entities: the long stream before it must
// not wait for it (capacity 1), and the run ends at once.
TEST(Limit, StopsReadingSoALongUpstreamIsNotHeldBack) {
  Workflow w(1);
  AddModule<Generate>(w, "gen", 1000000, 1000);
  Make(w, LimitModule(), "limit", {{"keep", 10}});
  Sink& sink = AddModule<Sink>(w, "count");
  w.Link("gen", "out", "limit", "in");
  w.Link("limit", "out", "count", "in");
  EXPECT_EQ(RunWithin(w), "");
  EXPECT_EQ(sink.numbers, Range(0, 10));
}

TEST(Limit, DefaultsPassEverythingAndKeepZeroPassesNothing) {
  for (int keep : {-1, 0}) {
    Workflow w(2);
    AddModule<Generate>(w, "gen", 1000, 33);
    Make(w, LimitModule(), "limit", keep < 0 ? nlohmann::json::object() : nlohmann::json{{"keep", keep}});
    Sink& sink = AddModule<Sink>(w, "sink");
    w.Link("gen", "out", "limit", "in");
    w.Link("limit", "out", "sink", "in");
    EXPECT_EQ(RunWithin(w), "");
    EXPECT_EQ(sink.numbers.size(), keep < 0 ? 1000u : 0u);
  }
}

TEST(Limit, RefusesBadParameters) {
  Workflow w;
  EXPECT_EQ(ErrorOf([&] { Make(w, LimitModule(), "limit", {{"keep", -1}}); }),
            "module 'limit': parameter 'keep': expected an integer >= 0, got -1");
  EXPECT_TRUE(Contains(ErrorOf([&] { Make(w, LimitModule(), "limit", {{"kep", 1}}); }), "unknown parameter 'kep'"));
}

TEST(Split, DealsWholeBatchesRoundRobin) {
  Workflow w(2);
  AddModule<Generate>(w, "gen", 100, 10);
  Module& split = Make(w, SplitModule(), "split", {{"outputs", "3"}});
  ASSERT_EQ(split.outputs().size(), 3u);
  std::vector<Sink*> sinks;
  for (int i = 1; i <= 3; ++i) {
    sinks.push_back(&AddModule<Sink>(w, "sink" + std::to_string(i)));
    w.Link("split", "out" + std::to_string(i), "sink" + std::to_string(i), "in");
  }
  w.Link("gen", "out", "split", "in");
  EXPECT_EQ(RunWithin(w), "");
  // Batch b (entities 10b..10b+9) went to out(b mod 3 + 1).
  for (size_t s = 0; s < 3; ++s) {
    std::vector<uint64_t> expected;
    for (uint64_t b = s; b < 10; b += 3) {
      auto batch = Range(10 * b, 10 * b + 10);
      expected.insert(expected.end(), batch.begin(), batch.end());
    }
    EXPECT_EQ(sinks[s]->numbers, expected) << "out" << s + 1;
  }
}

TEST(Split, AnUnlinkedOutputDropsItsShare) {
  Workflow w(1);
  AddModule<Generate>(w, "gen", 1000, 10);
  Make(w, SplitModule(), "split", nlohmann::json::object());
  Sink& sink = AddModule<Sink>(w, "sink");
  w.Link("gen", "out", "split", "in");
  w.Link("split", "out2", "sink", "in");
  EXPECT_EQ(RunWithin(w), "");
  EXPECT_EQ(sink.numbers.size(), 500u);
}

// split -> merge with one-slot links: reading merge's inputs in turn would
// deadlock; every entity arrives once, each input's batches in order.
TEST(Merge, MergesTheOutputsOfOneSplitWithoutDeadlock) {
  Workflow w(1);
  AddModule<Generate>(w, "gen", 30000, 10);
  Make(w, SplitModule(), "split", {{"outputs", 3}});
  Make(w, MergeModule(), "merge", {{"inputs", 3}});
  Sink& sink = AddModule<Sink>(w, "sink");
  w.Link("gen", "out", "split", "in");
  for (int i = 1; i <= 3; ++i) w.Link("split", "out" + std::to_string(i), "merge", "in" + std::to_string(i));
  w.Link("merge", "out", "sink", "in");
  EXPECT_EQ(RunWithin(w), "");
  ASSERT_EQ(sink.numbers.size(), 30000u);
  std::vector<int64_t> last(3, -1);  // the last batch seen from each input
  for (uint64_t n : sink.numbers) {
    int64_t batch = static_cast<int64_t>(n / 10);
    ASSERT_GE(batch, last[batch % 3]);
    last[batch % 3] = batch;
  }
  std::vector<uint64_t> sorted = sink.numbers;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, Range(0, 30000));
}

TEST(Merge, TotalIsTheSumOfItsInputs) {
  Workflow w(2);
  AddModule<Generate>(w, "a", 1000, 7);
  AddModule<Generate>(w, "b", 2345, 100);
  Make(w, MergeModule(), "merge", nlohmann::json::object());
  Sink& sink = AddModule<Sink>(w, "sink");
  w.Link("a", "out", "merge", "in1");
  w.Link("b", "out", "merge", "in2");
  w.Link("merge", "out", "sink", "in");
  EXPECT_EQ(RunWithin(w), "");
  EXPECT_EQ(sink.numbers.size(), 3345u);
}

TEST(Merge, RefusesNoInputs) {
  Workflow w;
  EXPECT_EQ(ErrorOf([&] { Make(w, MergeModule(), "merge", {{"inputs", "0"}}); }),
            "module 'merge': parameter 'inputs': expected an integer from 1 to 4096, got 0");
}

TEST(Collect, PutsARunColumnBeforeTheRowsOfEachRun) {
  Workflow w(1);
  AddModule<RowSource>(w, "run0", std::vector<std::string>{"key", "count"}, 5, 0);
  AddModule<RowSource>(w, "run1", std::vector<std::string>{"key", "count"}, 4, 1000);
  Make(w, CollectModule(), "collect", {{"inputs", 2}});
  RowSink& sink = AddModule<RowSink>(w, "sink");
  w.Link("run0", "rows", "collect", "in1");
  w.Link("run1", "rows", "collect", "in2");
  w.Link("collect", "rows", "sink", "in");
  EXPECT_EQ(RunWithin(w), "");
  EXPECT_EQ(sink.columns, (std::vector<std::string>{"run", "key", "count"}));
  ASSERT_EQ(sink.rows.size(), 9u);
  std::vector<int64_t> next = {0, 0};  // the next row expected of each run
  for (const auto& row : sink.rows) {
    ASSERT_EQ(row.size(), 3u);
    int64_t run = std::get<int64_t>(row[0]);
    ASSERT_TRUE(run == 0 || run == 1);
    int64_t r = next[run]++;
    EXPECT_EQ(std::get<int64_t>(row[1]), 1000 * run + 10 * r);
    EXPECT_EQ(std::get<int64_t>(row[2]), 1000 * run + 10 * r + 1);
  }
  EXPECT_EQ(next, (std::vector<int64_t>{5, 4}));
}

TEST(Collect, RefusesRunsWithDifferentColumns) {
  Workflow w(1);
  AddModule<RowSource>(w, "run0", std::vector<std::string>{"key", "count"}, 5);
  AddModule<RowSource>(w, "run1", std::vector<std::string>{"key", "mean"}, 5);
  Make(w, CollectModule(), "collect", nlohmann::json::object());
  AddModule<RowSink>(w, "sink");
  w.Link("run0", "rows", "collect", "in1");
  w.Link("run1", "rows", "collect", "in2");
  w.Link("collect", "rows", "sink", "in");
  std::string error = RunWithin(w);
  EXPECT_TRUE(Contains(error, "module 'collect': inputs in"));
  EXPECT_TRUE(Contains(error, "have different columns"));
  EXPECT_TRUE(Contains(error, "(key, count)"));
  EXPECT_TRUE(Contains(error, "(key, mean)"));
}

TEST(FlowModules, DescribeTheirPorts) {
  EXPECT_EQ(SplitModule().outputs.at(0).name, "out#");
  EXPECT_EQ(MergeModule().inputs.at(0).name, "in#");
  EXPECT_EQ(CollectModule().inputs.at(0).type, "rows");
  EXPECT_EQ(LimitModule().outputs.at(0).type, "entities");
}

}  // namespace
}  // namespace macroscope::pipeline::engine_test
