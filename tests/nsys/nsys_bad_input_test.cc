// Refusals of the Nsight Systems reader: each bad file gives one line
// "macroscope: FILE: message" and exit 1, nothing crashes, nothing is written.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "nsys_test_helpers.h"
#include "test_support.h"

namespace macroscope::nsys_test {
namespace {

using testing::CommandResult;
using testing::Macroscope;
using testing::Quote;
using testing::TempDir;

// `info FILE` and `convert FILE -o OUT.json` both refuse with "FILE: ..." and
// exit 1, and the conversion writes nothing. Returns info's error text.
std::string ExpectRefused(const std::string& file, const TempDir& dir) {
  const CommandResult r = Macroscope("info " + Quote(file));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(r.err.rfind("macroscope: " + file + ": ", 0), 0u) << r.err;
  const std::string out = dir.path() + "/out.json";
  const CommandResult c = Macroscope("convert " + Quote(file) + " -o " + Quote(out));
  EXPECT_EQ(c.exit_code, 1) << c.err;
  EXPECT_FALSE(std::filesystem::exists(out));
  return r.err;
}

// The first `bytes` bytes of `from`, in `to`.
void Truncate(const std::string& from, const std::string& to, size_t bytes) {
  std::string text = testing::ReadText(from);
  ASSERT_GT(text.size(), bytes);
  testing::WriteText(to, text.substr(0, bytes));
}

TEST(NsysBadInput, SqliteFileOfAnotherProgram) {
  TempDir dir;
  const std::string file = dir.path() + "/other.sqlite";
  MakeDatabase(file, "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes VALUES (1, 'x');");
  EXPECT_NE(ExpectRefused(file, dir).find("not a trace in any supported format"), std::string::npos);
}

TEST(NsysBadInput, NotSqliteBehindItsHeader) {
  TempDir dir;
  const std::string file = dir.path() + "/fake.sqlite";
  testing::WriteText(file, std::string("SQLite format 3\0", 16) + std::string(4000, 'x'));
  ExpectRefused(file, dir);
}

TEST(NsysBadInput, TruncatedSyntheticExport) {
  TempDir dir;
  const std::string whole = dir.path() + "/whole.sqlite", cut = dir.path() + "/cut.sqlite";
  MakeDatabase(whole, kSyntheticSql);
  // Cut inside its tables' pages (1 KiB each): the schema reads, a table does not.
  for (size_t bytes : {size_t{2048}, size_t{5000}, size_t{9216}}) {
    Truncate(whole, cut, bytes);
    ExpectRefused(cut, dir);
  }
}

TEST(NsysBadInput, TruncatedSharedExport) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  TempDir dir;
  const std::string cut = dir.path() + "/cut.sqlite";
  const std::string whole = testing::SharedTestData() + "/nsys/saxpy-mpi-cuda_nsys_perlmutter0.sqlite";
  for (size_t bytes : {size_t{100000}, size_t{800000}}) {
    Truncate(whole, cut, bytes);
    ExpectRefused(cut, dir);
  }
}

TEST(NsysBadInput, NoTableOfEvents) {
  TempDir dir;
  const std::string file = dir.path() + "/empty.sqlite";
  MakeDatabase(file,
               "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
               "CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER);"
               "INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1700000000000000000);");
  EXPECT_NE(ExpectRefused(file, dir).find("without any table of events"), std::string::npos);
}

TEST(NsysBadInput, EssentialColumnMissing) {
  TempDir dir;
  const std::string file = dir.path() + "/nostart.sqlite";
  MakeDatabase(file,
               "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
               "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (finish INTEGER, deviceId INTEGER, contextId INTEGER,"
               " streamId INTEGER);"
               "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (10, 0, 1, 7);");
  const std::string err = ExpectRefused(file, dir);
  EXPECT_NE(err.find("table CUPTI_ACTIVITY_KIND_KERNEL has no column start"), std::string::npos) << err;
}

TEST(NsysBadInput, TimesBeyondWhatModelTimesHold) {
  TempDir dir;
  const std::string file = dir.path() + "/far.sqlite";
  MakeDatabase(file,
               "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
               "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER,"
               " contextId INTEGER, streamId INTEGER);"
               "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (0, 10, 0, 1, 7), "
               "(9000000000000000000, 9000000000000000010, 0, 1, 7);");
  ExpectRefused(file, dir);
}

TEST(NsysBadInput, RowsWithoutTimesAreSkippedAndCounted) {
  TempDir dir;
  const std::string file = dir.path() + "/notime.sqlite";
  MakeDatabase(file,
               "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
               "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER,"
               " contextId INTEGER, streamId INTEGER);"
               "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (0, 10, 0, 1, 7), (NULL, 20, 0, 1, 7),"
               " (30, 20, 0, 1, 7);");
  const CommandResult r = Macroscope("info " + Quote(file));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("1 row(s) skipped (CUPTI_ACTIVITY_KIND_KERNEL: no start time)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("1 row(s) ending before their start"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace macroscope::nsys_test
