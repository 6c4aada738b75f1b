// The OTF2 reader on an archive the OTF2 library writes at test time.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "formats/format.h"
#include "sample_archive.h"
#include "test_util.h"

namespace macroscope::otf2::testing {
namespace {

class Otf2Sample : public ::testing::Test {
 protected:
  void SetUp() override {
    anchor_ = WriteSampleArchive(dir_.path());
    ASSERT_FALSE(anchor_.empty());
    formats::ReadStats stats = formats::ReadTrace({anchor_}, {}, trace_);
    records_ = stats.events;
  }

  ContainerId Find(std::string_view name, std::string_view type) const {
    for (ContainerId c = 0; c < trace_.containers().size(); ++c)
      if (trace_.Str(trace_.container(c).name) == name &&
          trace_.Str(trace_.type(trace_.container(c).type).name) == type)
        return c;
    ADD_FAILURE() << "no container " << name << " of type " << type;
    return kNone;
  }
  // The container whose alias is `alias` ("loc:ID" for OTF2 location ID).
  ContainerId ByAlias(std::string_view alias) const {
    for (ContainerId c = 0; c < trace_.containers().size(); ++c)
      if (trace_.Str(trace_.container(c).alias) == alias) return c;
    ADD_FAILURE() << "no container " << alias;
    return kNone;
  }
  // The store of the entity type named `type` in container `c`.
  const EntityStore* Store(ContainerId c, std::string_view type) const {
    for (const auto& [t, index] : trace_.container(c).stores)
      if (trace_.Str(trace_.type(t).name) == type) return &trace_.stores()[index];
    return nullptr;
  }

  TempDir dir_;
  std::string anchor_;
  Trace trace_;
  uint64_t records_ = 0;
  SampleCounts expected_;
};

TEST_F(Otf2Sample, SniffsTheAnchorAndTheArchiveFolder) {
  EXPECT_EQ(formats::Detect(anchor_).name, "otf2");
  EXPECT_EQ(formats::Detect(dir_.path()).name, "otf2");
}

TEST_F(Otf2Sample, ContainerTreeFollowsSystemTreeGroupsAndLocations) {
  EXPECT_EQ(trace_.containers().size() - 1, static_cast<size_t>(expected_.containers));
  ContainerId cluster = Find("cluster", "machine");
  ContainerId node = Find("n0", "node");
  ContainerId rank0 = Find("Rank 0", "PROCESS");
  ContainerId worker = Find("Worker thread", "CPU_THREAD");
  EXPECT_EQ(trace_.container(cluster).parent, kRootContainer);
  EXPECT_EQ(trace_.container(node).parent, cluster);
  EXPECT_EQ(trace_.container(rank0).parent, node);
  EXPECT_EQ(trace_.container(worker).parent, rank0);
  // SYSTEM_TREE_NODE_PROPERTY -> the container's user fields.
  ASSERT_EQ(trace_.container(node).extras.size(), 1u);
  EXPECT_EQ(trace_.Str(trace_.container(node).extras[0].name), "platform");
  EXPECT_EQ(trace_.Str(trace_.container(node).extras[0].value), "test");
}

// Model times are whole timer ticks from the global offset (exact); the
// time base says how long a tick is and where the clock's origin is.
TEST_F(Otf2Sample, TimesAreTicksFromTheGlobalOffsetAndTheSpanStartsAtTheFirstEvent) {
  const TimeBase& base = trace_.time_base();
  EXPECT_TRUE(base.whole_ticks);
  EXPECT_EQ(base.num, 1u);
  EXPECT_EQ(base.den, 1000u);
  EXPECT_EQ(base.origin, 1000);
  EXPECT_EQ(trace_.start_time(), 2);
  EXPECT_EQ(trace_.end_time(), 100);
  EXPECT_DOUBLE_EQ(base.Seconds(trace_.start_time()), expected_.start);
  EXPECT_DOUBLE_EQ(base.Seconds(trace_.end_time()), expected_.end);
  EXPECT_EQ(records_, 22u);  // 11 + 5 + 6 records on locations 0, 1, 2
}

// Every record's time, to the tick: the entities start and end exactly at
// otf2-print's timestamps, and at no other time.
TEST_F(Otf2Sample, EntityTimesAreOtf2PrintsTicks) {
  EXPECT_EQ(ModelTicks(trace_), Otf2PrintTicks(anchor_));
}

// dump prints the clock's own seconds (origin + ticks), exactly; a store
// keeps the time base, so its dump is the same; --start takes the same
// numbers and offsets from the trace start.
TEST_F(Otf2Sample, DumpPrintsTheClockSecondsAndTheStoreKeepsThem) {
  const std::string store = dir_.path() + "/sample.mstore";
  ASSERT_EQ(RunCommand(std::string(MACROSCOPE_BINARY) + " import " + Quote(anchor_) + " -o " + Quote(store)).exit_code,
            0);
  CommandResult from_archive = RunCommand(std::string(MACROSCOPE_BINARY) + " dump -l 4 " + Quote(anchor_));
  CommandResult from_store = RunCommand(std::string(MACROSCOPE_BINARY) + " dump -l 4 " + Quote(store));
  ASSERT_EQ(from_archive.exit_code, 0) << from_archive.err;
  EXPECT_EQ(from_archive.out, from_store.out);
  // main on the worker: ticks 1012 .. 1080 of a 1 kHz clock.
  EXPECT_NE(from_archive.out.find(", Region, 1.0120, 1.0800, 0.0680, 0.0000, main"), std::string::npos)
      << from_archive.out;
  // Tick 1085 three ways: the clock's seconds, and 83 ms after the start (tick 1002).
  std::vector<std::string> windows;
  for (const char* start : {"1.085", "+83ms", "+0.083"}) {
    CommandResult window = RunCommand(std::string(MACROSCOPE_BINARY) + " dump -l 4 -s " + Quote(start) + " " +
                                      Quote(anchor_));
    ASSERT_EQ(window.exit_code, 0) << window.err;
    windows.push_back(window.out);
  }
  EXPECT_EQ(windows[0], windows[1]);
  EXPECT_EQ(windows[0], windows[2]);
  EXPECT_LT(windows[0].size(), from_archive.out.size());
  EXPECT_EQ(windows[0].find("1.0800, 0.0680, 0.0000, main"), std::string::npos) << windows[0];
  CommandResult bad = RunCommand(std::string(MACROSCOPE_BINARY) + " dump -s +3parsecs " + Quote(anchor_));
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("--start: cannot read the time '+3parsecs'"), std::string::npos) << bad.err;
}

TEST_F(Otf2Sample, EnterLeaveBecomeNestedRegionStates) {
  EXPECT_EQ(trace_.CountEntities(TypeKind::kState), static_cast<size_t>(expected_.states));
  const EntityStore* worker = Store(Find("Worker thread", "CPU_THREAD"), "Region");
  ASSERT_NE(worker, nullptr);
  ASSERT_EQ(worker->size(), 3u);
  // In the order the simulator completes them: innermost first.
  std::vector<int> levels(worker->level.begin(), worker->level.end());
  std::sort(levels.begin(), levels.end());
  EXPECT_EQ(levels, (std::vector<int>{0, 1, expected_.max_level}));
  for (size_t i = 0; i < worker->size(); ++i) {
    if (worker->level[i] == 0) {
      EXPECT_EQ(trace_.Str(worker->value[i]), "main");
      EXPECT_EQ(worker->start[i], 12);
      EXPECT_EQ(worker->end[i], 80);
    } else {
      EXPECT_EQ(trace_.Str(worker->value[i]), "compute");
    }
  }
}

TEST_F(Otf2Sample, AttributesBecomeUserFields) {
  const EntityStore* master = Store(ByAlias("loc:0"), "Region");  // rank 0's master thread
  ASSERT_NE(master, nullptr);
  bool found = false;
  for (size_t i = 0; i < master->size(); ++i) {
    if (trace_.Str(master->value[i]) != "main") continue;
    master->extras.ForEach(i, [&](const ExtraField& f) {
      EXPECT_EQ(trace_.Str(f.name), "phase");
      EXPECT_EQ(trace_.Str(f.value), "init");
      found = true;
    });
  }
  EXPECT_TRUE(found);
}

TEST_F(Otf2Sample, MpiSendAndRecvBecomeOneLinkInTheCommonNode) {
  EXPECT_EQ(trace_.CountEntities(TypeKind::kLink), static_cast<size_t>(expected_.links));
  const EntityStore* links = Store(Find("n0", "node"), "MPI message");
  ASSERT_NE(links, nullptr);
  ASSERT_EQ(links->size(), 1u);
  EXPECT_EQ(links->start[0], 41);
  EXPECT_EQ(links->end[0], 50);
  EXPECT_EQ(trace_.Str(links->value[0]), "MPI_COMM_WORLD");
  EXPECT_EQ(trace_.Str(trace_.container(links->peer_start[0]).alias), "loc:0");
  EXPECT_EQ(trace_.Str(trace_.container(links->peer_end[0]).alias), "loc:1");
}

TEST_F(Otf2Sample, MetricMembersBecomeVariables) {
  EXPECT_EQ(trace_.CountEntities(TypeKind::kVariable), static_cast<size_t>(expected_.variable_values));
  ContainerId master = ByAlias("loc:0");
  const EntityStore* cycles = Store(master, "cycles");
  const EntityStore* temperature = Store(master, "temperature");
  ASSERT_NE(cycles, nullptr);
  ASSERT_NE(temperature, nullptr);
  ASSERT_EQ(cycles->size(), 2u);
  EXPECT_EQ(cycles->number, (std::vector<double>{100, 250}));
  EXPECT_EQ(cycles->start[0], 20);
  EXPECT_EQ(cycles->end[0], 30);
  EXPECT_EQ(temperature->number, (std::vector<double>{36.5, 37.25}));
}

TEST_F(Otf2Sample, OtherRecordsBecomeEvents) {
  EXPECT_EQ(trace_.CountEntities(TypeKind::kEvent), static_cast<size_t>(expected_.events));
  const EntityStore* begin = Store(ByAlias("loc:0"), "PROGRAM_BEGIN");
  ASSERT_NE(begin, nullptr);
  ASSERT_EQ(begin->size(), 1u);
  EXPECT_EQ(trace_.Str(begin->value[0]), "./sample");
}

TEST_F(Otf2Sample, CountsAgreeWithOtf2Print) {
  std::map<std::string, int> counts = Otf2PrintCounts(anchor_);
  int total = 0;
  for (const auto& [kind, n] : counts) total += n;
  EXPECT_EQ(static_cast<uint64_t>(total), records_);
  EXPECT_EQ(counts["ENTER"], counts["LEAVE"]);
  EXPECT_EQ(static_cast<size_t>(counts["ENTER"]), trace_.CountEntities(TypeKind::kState));
  EXPECT_EQ(counts["MPI_SEND"], counts["MPI_RECV"]);
  EXPECT_EQ(static_cast<size_t>(counts["MPI_SEND"]), trace_.CountEntities(TypeKind::kLink));
  EXPECT_EQ(counts["METRIC"], expected_.metric_records);
  EXPECT_EQ(static_cast<size_t>(counts["METRIC"] * 2), trace_.CountEntities(TypeKind::kVariable));
  EXPECT_EQ(static_cast<size_t>(counts["PROGRAM_BEGIN"] + counts["PROGRAM_END"]),
            trace_.CountEntities(TypeKind::kEvent));
}

// A reading of some kinds only (profile reads states, comm links): each
// kind asked for is the whole reading's, entity for entity; the others are
// left out; the span and the containers are the whole reading's.
TEST_F(Otf2Sample, ReadingSomeKindsKeepsThemWholeAndTheSpan) {
  const std::vector<TypeKind> kinds = {TypeKind::kState, TypeKind::kEvent, TypeKind::kVariable, TypeKind::kLink};
  for (TypeKind kind : kinds) {
    SCOPED_TRACE(std::string(TypeKindName(kind)));
    formats::ReadOptions options;
    options.kinds = formats::EntityKinds::Only({kind});
    Trace some;
    formats::ReadTrace({anchor_}, options, some);
    EXPECT_EQ(some.start_time(), trace_.start_time());
    EXPECT_EQ(some.end_time(), trace_.end_time());
    EXPECT_EQ(some.containers().size(), trace_.containers().size());
    for (TypeKind other : kinds)
      EXPECT_EQ(some.CountEntities(other), other == kind ? trace_.CountEntities(other) : 0u) << TypeKindName(other);
    // The same entities: each store of that kind, start for start.
    std::multiset<double> whole_starts, some_starts;
    for (const EntityStore& store : trace_.stores())
      if (store.kind == kind) whole_starts.insert(store.start.begin(), store.start.end());
    for (const EntityStore& store : some.stores())
      if (store.kind == kind) some_starts.insert(store.start.begin(), store.start.end());
    EXPECT_EQ(some_starts, whole_starts);
  }
}

}  // namespace
}  // namespace macroscope::otf2::testing
