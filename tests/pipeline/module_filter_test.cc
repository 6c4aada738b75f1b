// filter: each condition alone, conditions together, the two outputs
// partitioning the input in order, user fields kept, parameters refused.
#include <algorithm>

#include "module_testing.h"

namespace macroscope::pipeline {
namespace {

using testing::EntityCollector;
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

// "kind type container start-end value" of each entity, in order.
std::vector<std::string> Describe(const EntityBatch& b) {
  std::vector<std::string> out;
  for (const Entity& e : b.entities) {
    char times[64];
    std::snprintf(times, sizeof times, "%g-%g", e.start, e.end);
    out.push_back(std::string(TypeKindName(e.kind)) + " " + std::string(b.Str(e.type)) + " " +
                  std::string(b.Str(e.container)) + " " + times + " " + std::string(b.Str(e.value)));
  }
  return out;
}

// How many entities match, after checking matched + unmatched is the
// input, each side in input order.
size_t Matches(nlohmann::json params) {
  const testing::Sample s = MakeSample();
  const Split split = RunFilter(std::move(params), {s.batch});
  const std::vector<std::string> all = Describe(s.batch), m = Describe(split.matched), u = Describe(split.unmatched);
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
  s.batch.base = TimeBase{.num = 1, .den = 1000000000, .whole_ticks = true, .origin = 0, .epoch_ns = std::nullopt};
  for (Entity& e : s.batch.entities) {
    e.start *= 1e9;
    e.end *= 1e9;
  }
  EXPECT_EQ(RunFilter({{"from", 4.5}, {"to", 6}}, {s.batch}).matched.entities.size(), 5u);
  EXPECT_EQ(RunFilter({{"min_duration", 2.5}}, {s.batch}).matched.entities.size(), 5u);
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
  ASSERT_EQ(split.matched.entities.size(), 2u);
  const Entity& e = split.matched.entities[1];
  ASSERT_EQ(e.fields_end - e.fields_begin, 1u);
  EXPECT_EQ(split.matched.Str(split.matched.fields[e.fields_begin].name), "cpu");
  EXPECT_EQ(split.matched.Str(split.matched.fields[e.fields_begin].value), "2");
  EXPECT_EQ(split.matched.trace, s.trace);
  EXPECT_EQ(split.unmatched.trace, s.trace);
}

TEST(FilterModule, SeveralBatchesAndAnEmptySide) {
  testing::Sample s = MakeSample();
  EntityBatch first = s.batch, second = s.batch;
  first.entities.resize(5);
  second.entities.erase(second.entities.begin(), second.entities.begin() + 5);
  const Split split = RunFilter({{"type", "Nothing"}}, {first, second});
  EXPECT_TRUE(split.matched.entities.empty());
  EXPECT_EQ(split.matched.trace, s.trace) << "an empty side still names its source";
  EXPECT_EQ(Describe(split.unmatched), Describe(s.batch));
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
  EXPECT_EQ(unmatched.all.entities.size(), 7u);
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
