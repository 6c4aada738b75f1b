// The OTF2 reader on real Score-P archives (../shared/testdata/otf2), whose
// counts were checked with otf2-print and are kept in expected-counts.tsv.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "formats/format.h"
#include "test_util.h"

namespace macroscope::otf2::testing {
namespace {

// (kind, key) -> count for one trace of expected-counts.tsv
// ("record ENTER" -> 42, "total locations" -> 2).
std::map<std::string, int> ExpectedCounts(const std::string& trace) {
  std::string path = SharedTestData() + "/expected-counts.tsv";
  std::ifstream in(path);
  EXPECT_TRUE(in) << "missing " << path << " (the shared test data is looked for in ../shared/testdata beside "
                  << "the repository, where CI puts it)";
  std::map<std::string, int> counts;
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string format, name, kind, key, count;
    if (!std::getline(fields, format, '\t') || !std::getline(fields, name, '\t') ||
        !std::getline(fields, kind, '\t') || !std::getline(fields, key, '\t') || !std::getline(fields, count))
      continue;
    if (format == "otf2" && name == trace) counts[kind + " " + key] = std::stoi(count);
  }
  EXPECT_FALSE(counts.empty()) << "no counts for " << trace << " in " << path;
  return counts;
}

class Otf2Scorep : public ::testing::TestWithParam<std::string> {
 protected:
  std::string Archive() const {
    std::string dir = SharedTestData() + "/" + GetParam();
    if (!std::filesystem::exists(dir + "/traces.otf2"))
      ADD_FAILURE() << "missing " << dir << "/traces.otf2: the shared test data is looked for in "
                    << SharedTestData() << " (../shared/testdata beside the repository, as in CI)";
    return dir;
  }
};

TEST_P(Otf2Scorep, ReadsWithTheVerifiedCounts) {
  std::map<std::string, int> expected = ExpectedCounts(GetParam());
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
  EXPECT_GT(trace.end_time(), 0.19);
  EXPECT_LT(trace.end_time(), 0.22);
}

TEST_P(Otf2Scorep, InfoJsonOfTheArchiveFolderHasTheSameTotals) {
  std::map<std::string, int> expected = ExpectedCounts(GetParam());
  CommandResult r = RunCommand(std::string(MACROSCOPE_BINARY) + " info --json " + Quote(Archive()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json info = nlohmann::json::parse(r.out);
  EXPECT_EQ(info["events"].get<int>(), expected["total events"]);
  EXPECT_EQ(info["totals"]["state"].get<int>(), expected["record ENTER"]);
  EXPECT_EQ(info["totals"]["link"].get<int>(), expected["record MPI_SEND"]);
  EXPECT_EQ(info["totals"]["variable"].get<int>(), 3 * expected["record METRIC"]);
  EXPECT_EQ(info["totals"]["event"].get<int>(), expected["record PROGRAM_BEGIN"] + expected["record PROGRAM_END"]);
}

TEST_P(Otf2Scorep, CountsAgreeWithOtf2Print) {
  std::map<std::string, int> expected = ExpectedCounts(GetParam());
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
