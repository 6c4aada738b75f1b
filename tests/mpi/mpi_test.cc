// `mpirun -np N macroscope aggregate|stats` gives the single process's
// output byte for byte (OTF2 archives read in parts, models and statistics
// reduced on rank 0), and bad input ends every rank with one message.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "mpi_support.h"
#include "ring_archive.h"
#include "sample_archive.h"
#include "test_support.h"

namespace macroscope::testing {
namespace {

class MpiSample : public ::testing::Test {
 protected:
  // Three locations in two processes, nested states, a message between
  // processes, metrics (otf2/sample_archive.h).
  void SetUp() override { anchor_ = Quote(otf2::testing::WriteSampleArchive(dir_.path())); }
  TempDir dir_;
  std::string anchor_;
};

TEST_F(MpiSample, StatsAreTheSingleProcesss) {
  ExpectSameUnderMpirun("stats " + anchor_);
  ExpectSameUnderMpirun("stats --format json --start +10ms --end +60ms " + anchor_);
}

TEST_F(MpiSample, AggregationsAreTheSingleProcesss) {
  ExpectSameUnderMpirun("aggregate --plist --no-cache --slices 20 " + anchor_);
  ExpectSameUnderMpirun("aggregate --mode spatiotemporal --p 0.3 " + anchor_);
  ExpectSameUnderMpirun("aggregate --metric link-count --plist --format csv " + anchor_);
}

TEST(Mpi, RingOfFiveRanksIsTheSingleProcesss) {
  // Five locations: with 4 ranks, rank 0 reads two; every message crosses ranks.
  TempDir dir;
  const std::string anchor = Quote(mpi::testing::WriteRingArchive(dir.path(), 5, 200));
  ExpectSameUnderMpirun("stats --format csv " + anchor);
  ExpectSameUnderMpirun("aggregate --mode spatiotemporal --plist " + anchor);
}

TEST_F(MpiSample, BadEventFileEndsEveryRankWithOneMessage) {
  // Location 1 is rank 1's: only that rank meets the damage.
  std::filesystem::resize_file(dir_.path() + "/traces/1.evt", 0);
  CommandResult r = Mpirun(2, "stats " + anchor_);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("macroscope: " + dir_.path() + "/traces.otf2: ", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(Mpi, MissingTraceEndsEveryRankWithOneMessage) {
  CommandResult r = Mpirun(2, "aggregate --p 0.5 /nonexistent/traces.otf2");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("/nonexistent/traces.otf2"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(Mpi, RankFailingAloneEndsTheJob) {
  // Rank 1 runs out of address space while reading its share (an internal
  // error that rank alone meets, while rank 0 waits for it in a
  // collective): the job ends, it does not hang, and says why.
  TempDir dir;
  const std::string trace = Quote(dir.path() + "/g.trace");
  ASSERT_EQ(Macroscope("generate --events 2500000 -o " + trace).exit_code, 0);
  const std::string args = std::string(MACROSCOPE_BINARY) + " stats --format csv " + trace;
  CommandResult r = RunCommand(std::string("timeout 120 ") + MPIRUN + " --allow-run-as-root --oversubscribe -q -np 1 " +
                               args + " : -np 1 sh -c " + Quote("ulimit -v 300000 && exec " + args));
  ASSERT_NE(r.exit_code, 124) << "the job hung";
  EXPECT_TRUE(r.exit_code == 1 || r.exit_code == 2) << r.exit_code << ": " << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("macroscope: ", 0), 0u) << r.err;
}

TEST(Mpi, ScorepArchivesAreTheSingleProcesss) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  const std::string anchor = Quote(SharedTestData() + "/otf2/ping-pong-otf2-papi/traces.otf2");
  ExpectSameUnderMpirun("stats --format csv " + anchor);
  ExpectSameUnderMpirun("aggregate --plist " + anchor);
}

TEST(Mpi, OtherFormatsAreReadWholeByEveryRank) {
  // Not shared: every rank reads the whole trace, rank 0 alone writes.
  TempDir dir;
  const std::string trace = dir.path() + "/trace.json";
  WriteText(trace,
            R"({"traceEvents":[{"name":"a","ph":"X","ts":0,"dur":10,"pid":1,"tid":1},)"
            R"({"name":"b","ph":"X","ts":5,"dur":20,"pid":1,"tid":2},{"name":"c","ph":"i","ts":7,"pid":2,"tid":3}]})");
  ExpectSameUnderMpirun("stats " + Quote(trace));
}

}  // namespace
}  // namespace macroscope::testing
