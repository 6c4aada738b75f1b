// `mpirun -np N macroscope info|import` of an OTF2 archive read by
// location: the single process's output and store, although the ranks meet
// the entity types in orders of their own (formats/otf2/part_types.h,
// part_stores.h).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "mpi_support.h"
#include "ring_archive.h"
#include "sample_archive.h"
#include "test_support.h"

namespace macroscope::testing {
namespace {

// Seven locations of two kinds, with event types first used by different
// locations at interleaved and equal times: with 2 or 4 ranks, every rank
// defines the types in another order than the whole reading.
class MpiMixedTypes : public ::testing::Test {
 protected:
  void SetUp() override { anchor_ = Quote(mpi::testing::WriteRingArchive(dir_.path(), 7, 20, true)); }
  TempDir dir_;
  std::string anchor_;
};

TEST_F(MpiMixedTypes, InfoIsTheSingleProcesss) {
  ExpectSameUnderMpirun("info " + anchor_);
  ExpectSameUnderMpirun("info --json " + anchor_);
}

// Two "Region" types (of CPU threads and of accelerator streams) are one
// model type and one statistics row, in the single process (where the
// model refused them before) as in the job, whose ranks meet rows by name.
TEST_F(MpiMixedTypes, StatsAndAggregateAreTheSingleProcesss) {
  ExpectSameUnderMpirun("stats --format csv " + anchor_);
  ExpectSameUnderMpirun("aggregate --mode temporal --slices 10 --p 0.5 " + anchor_);
}

TEST_F(MpiMixedTypes, ImportWritesTheSingleProcesssStore) {
  TempDir out;
  ExpectSameImportUnderMpirun(anchor_, out.path());
}

TEST(MpiOtf2, MetricOfTheNodeIsTheSingleProcesss) {
  // Every location sets the node's "load": ranks reading apart would build
  // that one store each, so import reads the archive on rank 0 alone.
  TempDir dir, out;
  const std::string anchor = Quote(mpi::testing::WriteRingArchive(dir.path(), 5, 20, true, true));
  ExpectSameUnderMpirun("info --json " + anchor);
  ExpectSameImportUnderMpirun(anchor, out.path());
}

TEST(MpiOtf2, SampleArchiveInfoAndImportAreTheSingleProcesss) {
  // Nested states, a message between processes, metrics.
  TempDir dir, out;
  const std::string anchor = Quote(otf2::testing::WriteSampleArchive(dir.path()));
  ExpectSameUnderMpirun("info --json " + anchor);
  ExpectSameImportUnderMpirun(anchor, out.path());
}

TEST(MpiOtf2, ScorepArchivesInfoAndImportAreTheSingleProcesss) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  for (const char* name : {"ping-pong-otf2", "ping-pong-otf2-papi"}) {
    TempDir out;
    const std::string anchor = Quote(SharedTestData() + "/otf2/" + name + "/traces.otf2");
    ExpectSameUnderMpirun("info " + anchor);
    ExpectSameUnderMpirun("info --json " + anchor);
    ExpectSameImportUnderMpirun(anchor, out.path());
  }
}

TEST(MpiOtf2, BadEventFileGivesTheSingleProcesssError) {
  // Location 1 is rank 1's: only that rank meets the damage.
  TempDir dir;
  const std::string anchor = Quote(otf2::testing::WriteSampleArchive(dir.path()));
  std::filesystem::resize_file(dir.path() + "/traces/1.evt", 0);
  ExpectSameErrorUnderMpirun("info " + anchor);
  ExpectSameErrorUnderMpirun("import -q " + anchor + " -o " + Quote(dir.path() + "/x.mstore"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/x.mstore"));
}

}  // namespace
}  // namespace macroscope::testing
