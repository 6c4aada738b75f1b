// The locations of an archive decoded on threads (location_threads.h):
// `dump`, `stats` and `import` with --threads 2 and 4 give --threads 1's
// output byte for byte, and a damaged archive the same one-line error and
// exit code, on the sample archive, on a ring archive big enough for many
// blocks of records and timestamps shared by several locations, and on the
// Score-P archives of ../shared/testdata.
#include <gtest/gtest.h>

#include <filesystem>

#include "ring_archive.h"
#include "sample_archive.h"
#include "test_util.h"

namespace macroscope::otf2::testing {
namespace {

namespace fs = std::filesystem;
using macroscope::testing::ExpectSameWithThreads;
using macroscope::testing::Macroscope;
using macroscope::testing::ReadText;

// dump, stats and the store of `import` with 2 and 4 threads equal 1 thread's.
void ExpectSameOutputs(const std::string& archive, const std::string& scratch) {
  for (const std::string command : {"dump", "stats --format csv"}) {
    CommandResult one = ExpectSameWithThreads(command, archive);
    EXPECT_EQ(one.exit_code, 0) << command << ": " << one.err;
    EXPECT_FALSE(one.out.empty()) << command;
  }
  auto import = [&](int threads) {
    std::string store = scratch + "/" + std::to_string(threads) + ".mstore";
    CommandResult r = Macroscope("import -q --threads " + std::to_string(threads) + " -o " + Quote(store) + " " +
                                 Quote(archive));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return ReadText(store);
  };
  const std::string one = import(1);
  for (int threads : {2, 4}) EXPECT_TRUE(import(threads) == one) << "import --threads " << threads << " on " << archive;
}

// `info` fails with 2 and 4 threads as with 1: exit 1, the same one line.
void ExpectSameRefusal(const std::string& archive) {
  CommandResult one = ExpectSameWithThreads("info", archive);
  EXPECT_EQ(one.exit_code, 1) << one.err;
  EXPECT_EQ(std::count(one.err.begin(), one.err.end(), '\n'), 1) << one.err;
}

TEST(Otf2Threads, SampleArchiveReadsTheSame) {
  TempDir dir;
  ExpectSameOutputs(WriteSampleArchive(dir.path() + "/archive"), dir.path());
}

TEST(Otf2Threads, RingArchiveReadsTheSame) {
  // 5 locations of 3 000 iterations: some 75 000 records, many blocks per
  // thread, every message across threads, equal times on several locations.
  TempDir dir;
  ExpectSameOutputs(mpi::testing::WriteRingArchive(dir.path() + "/ring", 5, 3000), dir.path());
}

TEST(Otf2Threads, ScorepArchivesReadTheSame) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  for (const char* name : {"ping-pong-otf2", "ping-pong-otf2-papi"}) {
    TempDir dir;
    ExpectSameOutputs(SharedTestData() + "/otf2/" + name, dir.path());
  }
}

TEST(Otf2Threads, DamagedLocationsFailTheSame) {
  struct Damage {
    const char* name;
    void (*apply)(const std::string& dir);
  };
  const Damage damages[] = {
      {"missing", [](const std::string& d) { fs::remove(d + "/traces/2.evt"); }},
      {"empty", [](const std::string& d) { fs::resize_file(d + "/traces/1.evt", 0); }},
      {"truncated",
       [](const std::string& d) { fs::resize_file(d + "/traces/0.evt", fs::file_size(d + "/traces/0.evt") / 2); }},
      {"corrupt", [](const std::string& d) {
         Overwrite(d + "/traces/0.evt", fs::file_size(d + "/traces/0.evt") / 3, 16, '\xff');
       }},
      {"two", [](const std::string& d) {
         fs::remove(d + "/traces/2.evt");
         fs::resize_file(d + "/traces/1.evt", 0);
       }},
  };
  for (const Damage& damage : damages) {
    SCOPED_TRACE(damage.name);
    TempDir dir;
    std::string anchor = WriteSampleArchive(dir.path());
    damage.apply(dir.path());
    ExpectSameRefusal(anchor);
  }
}

TEST(Otf2Threads, RecordsDamagedMidwayFailAfterTheSameRecord) {
  // Bytes overwritten in the middle of location 1's events: the sequential
  // reader fails after a record count the threads must reproduce.
  TempDir dir;
  std::string anchor = mpi::testing::WriteRingArchive(dir.path(), 4, 3000);
  fs::path evt = dir.path() + "/traces/1.evt";
  Overwrite(evt, fs::file_size(evt) / 2, 64, '\xff');
  ExpectSameRefusal(anchor);
  std::string err = Macroscope("info --threads 2 " + Quote(anchor)).err;
  EXPECT_NE(err.find("after record"), std::string::npos) << err;
}

}  // namespace
}  // namespace macroscope::otf2::testing
