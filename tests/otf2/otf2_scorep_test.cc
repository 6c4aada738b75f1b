// The OTF2 reader on real Score-P archives (../shared/testdata/otf2), whose
// counts were checked with otf2-print and are kept in expected-counts.tsv.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>

#include "formats/format.h"
#include "test_util.h"

namespace macroscope::otf2::testing {
namespace {

// (kind, key) -> count of one trace in expected-counts.tsv ("record ENTER" -> 42).
std::map<std::string, int> Expected(const std::string& trace) {
  std::map<std::string, int> counts;
  for (const auto& [key, n] : ExpectedCounts("otf2", trace)) counts[key] = static_cast<int>(n);
  return counts;
}

class Otf2Scorep : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { MACROSCOPE_NEEDS_SHARED_TESTDATA(); }
  std::string Archive() const { return SharedTestData() + "/" + GetParam(); }
};

TEST_P(Otf2Scorep, ReadsWithTheVerifiedCounts) {
  std::map<std::string, int> expected = Expected(GetParam());
  Trace trace;
  formats::ReadStats stats = formats::ReadTrace({Archive() + "/traces.otf2"}, {}, trace);
  EXPECT_EQ(static_cast<int>(stats.events), expected["total events"]);
  int locations = 0;
  for (const Container& c : trace.containers())
    if (trace.Str(trace.type(c.type).name) == "CPU_THREAD") ++locations;
  EXPECT_EQ(locations, expected["total locations"]);
  // 2 system tree nodes and 2 location groups above the locations.
  EXPECT_EQ(trace.containers().size() - 1, static_cast<size_t>(4 + locations));
  EXPECT_EQ(expected["record ENTER"], expected["record LEAVE"]);
  EXPECT_EQ(trace.CountEntities(TypeKind::kState), static_cast<size_t>(expected["record ENTER"]));
  EXPECT_EQ(expected["record MPI_SEND"], expected["record MPI_RECV"]);
  EXPECT_EQ(trace.CountEntities(TypeKind::kLink), static_cast<size_t>(expected["record MPI_SEND"]));
  EXPECT_EQ(trace.CountEntities(TypeKind::kEvent),
            static_cast<size_t>(expected["record PROGRAM_BEGIN"] + expected["record PROGRAM_END"]));
  // PAPI: 3 members per METRIC record, each at its own instant per location.
  EXPECT_EQ(trace.CountEntities(TypeKind::kVariable), static_cast<size_t>(3 * expected["record METRIC"]));
  EXPECT_EQ(trace.start_time(), 0.0);  // the first event is at the clock's global offset
  // One tick of CLOCK_PROPERTIES' timer, as otf2-print -G gives it.
  CommandResult defs = RunCommand(std::string(OTF2_PRINT) + " -G " + Quote(Archive() + "/traces.otf2"));
  EXPECT_NE(defs.out.find("Ticks per Seconds: " + std::to_string(trace.time_base().den) + ","), std::string::npos);
  EXPECT_GT(trace.time_base().Seconds(trace.end_time()), 0.19);
  EXPECT_LT(trace.time_base().Seconds(trace.end_time()), 0.22);
}

TEST_P(Otf2Scorep, InfoJsonOfTheArchiveFolderHasTheSameTotals) {
  std::map<std::string, int> expected = Expected(GetParam());
  CommandResult r = RunCommand(std::string(MACROSCOPE_BINARY) + " info --json " + Quote(Archive()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json info = nlohmann::json::parse(r.out);
  EXPECT_EQ(info["events"].get<int>(), expected["total events"]);
  EXPECT_EQ(info["totals"]["state"].get<int>(), expected["record ENTER"]);
  EXPECT_EQ(info["totals"]["link"].get<int>(), expected["record MPI_SEND"]);
  EXPECT_EQ(info["totals"]["variable"].get<int>(), 3 * expected["record METRIC"]);
  EXPECT_EQ(info["totals"]["event"].get<int>(), expected["record PROGRAM_BEGIN"] + expected["record PROGRAM_END"]);
}

// Every record's time, to the tick (the timer runs at 2.1 GHz: seconds in
// a double would merge neighbours).
TEST_P(Otf2Scorep, EntityTimesAreOtf2PrintsTicks) {
  Trace trace;
  formats::ReadTrace({Archive() + "/traces.otf2"}, {}, trace);
  EXPECT_EQ(ModelTicks(trace), Otf2PrintTicks(Archive() + "/traces.otf2"));
}

TEST_P(Otf2Scorep, CountsAgreeWithOtf2Print) {
  std::map<std::string, int> expected = Expected(GetParam());
  std::map<std::string, int> printed = Otf2PrintCounts(Archive() + "/traces.otf2");
  for (const auto& [kind, n] : printed) EXPECT_EQ(n, expected["record " + kind]) << kind;
}

INSTANTIATE_TEST_SUITE_P(Archives, Otf2Scorep,
                         ::testing::Values("otf2/ping-pong-otf2", "otf2/ping-pong-otf2-papi"),
                         [](const auto& info) {
                           std::string name = info.param.substr(info.param.find('/') + 1);
                           for (char& c : name)
                             if (c == '-') c = '_';
                           return name;
                         });

}  // namespace
}  // namespace macroscope::otf2::testing
