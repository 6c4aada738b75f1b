// The OTF2 reader on an archive the OTF2 library writes at test time.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

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

TEST_F(Otf2Sample, TimesAreSecondsFromTheClockAndTheSpanStartsAtTheFirstEvent) {
  EXPECT_DOUBLE_EQ(trace_.start_time(), expected_.start);
  EXPECT_DOUBLE_EQ(trace_.end_time(), expected_.end);
  EXPECT_EQ(records_, 22u);  // 11 + 5 + 6 records on locations 0, 1, 2
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
      EXPECT_DOUBLE_EQ(worker->start[i], 0.012);
      EXPECT_DOUBLE_EQ(worker->end[i], 0.080);
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
  EXPECT_DOUBLE_EQ(links->start[0], 0.041);
  EXPECT_DOUBLE_EQ(links->end[0], 0.050);
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
  EXPECT_DOUBLE_EQ(cycles->start[0], 0.020);
  EXPECT_DOUBLE_EQ(cycles->end[0], 0.030);
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

}  // namespace
}  // namespace macroscope::otf2::testing
