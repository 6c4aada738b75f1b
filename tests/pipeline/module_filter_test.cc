// filter: each condition alone, conditions together, the two outputs
// partitioning the input in order, user fields kept, parameters refused.
#include <algorithm>

#include "module_testing.h"

namespace macroscope::pipeline {
namespace {

using testing::EntityCollector;
using testing::Lines;
using testing::ErrorOf;
using testing::MakeSample;
using testing::Source;

struct Split {
  EntityBatch matched, unmatched;
};

Split RunFilter(nlohmann::json params, std::vector<EntityBatch> batches) {
  Workflow w;
  w.Add(std::make_unique<Source<EntityBatch>>("source", std::move(batches)));
  w.Add(testing::Make(FilterModule(), "f", std::move(params)));
  auto& matched = static_cast<EntityCollector&>(w.Add(std::make_unique<EntityCollector>("matched")));
  auto& unmatched = static_cast<EntityCollector&>(w.Add(std::make_unique<EntityCollector>("unmatched")));
  w.Link("source", "out", "f", "in");
  w.Link("f", "matched", "matched", "in");
  w.Link("f", "unmatched", "unmatched", "in");
  w.Run();
  return {matched.all, unmatched.all};
}

// How many entities match, after checking matched + unmatched is the
// input, each side in input order.
size_t Matches(nlohmann::json params) {
  const testing::Sample s = MakeSample();
  const Split split = RunFilter(std::move(params), {s.batch});
  const std::vector<std::string> all = Lines(s.batch), m = Lines(split.matched), u = Lines(split.unmatched);
  EXPECT_EQ(m.size() + u.size(), all.size());
  std::vector<std::string> merged;
  size_t i = 0, j = 0;
  for (const std::string& e : all) {
    if (i < m.size() && m[i] == e)
      merged.push_back(m[i++]);
    else if (j < u.size() && u[j] == e)
      merged.push_back(u[j++]);
  }
  EXPECT_EQ(merged, all) << "each side keeps the input's order";
  return m.size();
}

TEST(FilterModule, NoConditionMatchesAll) { EXPECT_EQ(Matches(nlohmann::json::object()), 10u); }

TEST(FilterModule, Kind) {
  EXPECT_EQ(Matches({{"kind", "state"}}), 3u);
  EXPECT_EQ(Matches({{"kind", {"event", "link"}}}), 4u);
  EXPECT_EQ(Matches({{"kind", "variable, event"}}), 5u);
}

TEST(FilterModule, TypeValueContainer) {
  EXPECT_EQ(Matches({{"type", "Power"}}), 3u);
  EXPECT_EQ(Matches({{"type", {"Event", "Comm"}}}), 4u);
  EXPECT_EQ(Matches({{"value", "run"}}), 2u);
  EXPECT_EQ(Matches({{"value", {"wait", "msg"}}}), 3u);
  EXPECT_EQ(Matches({{"value", "nothing"}}), 0u);
  EXPECT_EQ(Matches({{"container", "n2"}}), 3u);
  EXPECT_EQ(Matches({{"container", "0"}}), 2u);
}

TEST(FilterModule, TimeWindowInSeconds) {
  // Intersecting [4.5, 6]: wait [2,5], tick @6, the three Power values.
  EXPECT_EQ(Matches({{"from", 4.5}, {"to", 6}}), 5u);
  EXPECT_EQ(Matches({{"from", "4.5"}, {"to", "6"}}), 5u);  // ${name} gives text
  EXPECT_EQ(Matches({{"to", 0.5}}), 3u);                   // run n1, Power n1 and n2
  EXPECT_EQ(Matches({{"from", 10.5}}), 0u);
}

TEST(FilterModule, TimeWindowOnNanosecondTicks) {
  // The same entities on a nanosecond clock: the window is still in seconds.
  testing::Sample s = MakeSample();
  for (testing::TestEntity& e : s.entities) {
    e.start *= 1e9;
    e.end *= 1e9;
  }
  s.batch = s.Batch(0, s.entities.size());
  s.batch.base = TimeBase{.num = 1, .den = 1000000000, .whole_ticks = true, .origin = 0, .epoch_ns = std::nullopt};
  EXPECT_EQ(RunFilter({{"from", 4.5}, {"to", 6}}, {s.batch}).matched.entities(), 5u);
  EXPECT_EQ(RunFilter({{"min_duration", 2.5}}, {s.batch}).matched.entities(), 5u);
}

TEST(FilterModule, UserField) {
  EXPECT_EQ(Matches({{"field", "cpu"}}), 2u);
  EXPECT_EQ(Matches({{"field", "cpu"}, {"field_value", "2"}}), 1u);
  EXPECT_EQ(Matches({{"field", "cpu"}, {"field_value", 2}}), 1u);
  EXPECT_EQ(Matches({{"field", "gpu"}}), 0u);
}

TEST(FilterModule, Durations) {
  EXPECT_EQ(Matches({{"min_duration", 2.5}}), 5u);  // wait, run n2, the three Power values
  EXPECT_EQ(Matches({{"max_duration", 0}}), 2u);    // the events
  EXPECT_EQ(Matches({{"min_duration", 1}, {"max_duration", 3}}), 4u);
}

TEST(FilterModule, ConditionsAllHold) {
  EXPECT_EQ(Matches({{"kind", "state"}, {"container", "n1"}}), 2u);
  EXPECT_EQ(Matches({{"value", "run"}, {"from", 3}}), 1u);
  EXPECT_EQ(Matches({{"kind", "event"}, {"field", "cpu"}, {"field_value", "1"}, {"container", "n2"}}), 0u);
}

TEST(FilterModule, KeepsUserFieldsAndSource) {
  const testing::Sample s = MakeSample();
  const Split split = RunFilter({{"kind", "event"}}, {s.batch});
  ASSERT_EQ(split.matched.entities(), 2u);
  EXPECT_EQ(Lines(split.matched).back(), "event|Event|n2|6|6|v=tick|cpu=2");
  EXPECT_EQ(split.matched.trace, s.trace);
  EXPECT_EQ(split.unmatched.trace, s.trace);
}

TEST(FilterModule, SeveralBatchesAndAnEmptySide) {
  testing::Sample s = MakeSample();
  const Split split = RunFilter({{"type", "Nothing"}}, {s.Batch(0, 5), s.Batch(5, 10)});
  EXPECT_TRUE(split.matched.empty());
  EXPECT_EQ(split.matched.trace, s.trace) << "an empty side still names its source";
  EXPECT_EQ(Lines(split.unmatched), Lines(s.batch));
}

TEST(FilterModule, OnlyOneSideRead) {
  const testing::Sample s = MakeSample();
  Workflow w;
  w.Add(std::make_unique<Source<EntityBatch>>("source", std::vector<EntityBatch>{s.batch}));
  w.Add(testing::Make(FilterModule(), "f", {{"kind", "state"}}));
  auto& unmatched = static_cast<EntityCollector&>(w.Add(std::make_unique<EntityCollector>("sink")));
  w.Link("source", "out", "f", "in");
  w.Link("f", "unmatched", "sink", "in");
  w.Run();
  EXPECT_EQ(unmatched.all.entities(), 7u);
}

TEST(FilterModule, BadParametersRefused) {
  auto make = [](nlohmann::json params) {
    return ErrorOf([&] { testing::Make(FilterModule(), "keep", std::move(params)); });
  };
  EXPECT_NE(make({{"kind", "states"}}).find("module 'keep': parameter 'kind': 'states'"), std::string::npos);
  EXPECT_NE(make({{"field_value", "1"}}).find("'field_value'"), std::string::npos);
  EXPECT_NE(make({{"from", 5}, {"to", 1}}).find("'from'"), std::string::npos);
  EXPECT_NE(make({{"from", "soon"}}).find("'from'"), std::string::npos);
  EXPECT_NE(make({{"min_duration", 2}, {"max_duration", 1}}).find("min_duration"), std::string::npos);
  EXPECT_NE(make({{"colour", "red"}}).find("unknown parameter 'colour'"), std::string::npos);
}

}  // namespace
}  // namespace macroscope::pipeline
