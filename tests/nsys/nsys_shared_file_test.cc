// The reader on the shared test data's Nsight Systems export (an MPI + CUDA
// saxpy rank on Perlmutter, an older export schema): every count is the
// sqlite3 CLI's on the same file, every time the table's own integer.
#include <gtest/gtest.h>

#include <algorithm>

#include "nsys_test_helpers.h"
#include "test_support.h"

namespace macroscope::nsys_test {
namespace {

using testing::Macroscope;
using testing::Quote;

std::string SaxpyExport() { return testing::SharedTestData() + "/nsys/saxpy-mpi-cuda_nsys_perlmutter0.sqlite"; }

// The states of one type in the dump, per value.
std::map<std::string, uint64_t> StatesOf(const std::vector<DumpLine>& dump, const std::string& type) {
  std::map<std::string, uint64_t> out;
  for (const auto& [key, n] : DumpCounts(dump, "State"))
    if (key.rfind(type + "|", 0) == 0) out[key.substr(type.size() + 1)] = n;
  return out;
}

TEST(NsysSharedFile, CountsPerTableAndNameEqualSqlite) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  const std::string file = SaxpyExport();
  const auto dump = Dump(file);
  const auto runtime = SqliteCounts(file,
                                    "select s.value, count(*) from CUPTI_ACTIVITY_KIND_RUNTIME r "
                                    "join StringIds s on s.id = r.nameId group by 1");
  EXPECT_EQ(SqliteCount(file, "select count(*) from CUPTI_ACTIVITY_KIND_RUNTIME"), 95);
  EXPECT_EQ(StatesOf(dump, "CUDA API"), runtime);
  EXPECT_EQ(StatesOf(dump, "Kernel"), SqliteCounts(file,
                                                   "select s.value, count(*) from CUPTI_ACTIVITY_KIND_KERNEL k "
                                                   "join StringIds s on s.id = k.shortName group by 1"));
  // Copy kinds as Nsight's documentation names them (CUDA_MEMCPY_KIND_HTOD = 1, _DTOH = 2).
  const auto copies = SqliteCounts(file, "select copyKind, count(*) from CUPTI_ACTIVITY_KIND_MEMCPY group by 1");
  std::map<std::string, uint64_t> named;
  for (const auto& [kind, n] : copies)
    named[kind == "1" ? "Host to device" : kind == "2" ? "Device to host" : kind] = n;
  EXPECT_EQ(StatesOf(dump, "Memcpy"), named);
  EXPECT_EQ(StatesOf(dump, "NVTX"), SqliteCounts(file,
                                                 "select coalesce(n.text, s.value), count(*) from NVTX_EVENTS n "
                                                 "left join StringIds s on s.id = n.textId "
                                                 "where n.eventType = 59 group by 1"));
  EXPECT_TRUE(StatesOf(dump, "Memset").empty());
  EXPECT_TRUE(StatesOf(dump, "OS runtime").empty());
}

TEST(NsysSharedFile, LinksCountTheLaunchesWithTheirGpuWork) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  const std::string file = SaxpyExport();
  const int64_t expected =
      SqliteCount(file,
                  "select count(*) from (select correlationId c from CUPTI_ACTIVITY_KIND_KERNEL union all "
                  "select correlationId from CUPTI_ACTIVITY_KIND_MEMCPY union all select correlationId from "
                  "CUPTI_ACTIVITY_KIND_MEMSET) where c in (select correlationId from CUPTI_ACTIVITY_KIND_RUNTIME)");
  EXPECT_EQ(expected, 20);
  const auto dump = Dump(file);
  EXPECT_EQ(
      static_cast<int64_t>(std::count_if(dump.begin(), dump.end(), [](const DumpLine& d) { return d.kind == "Link"; })),
      expected);
  // Each kernel's link starts at the runtime call that launched it (event class 0,
  // cudaLaunchKernel_v7000), not at the backtrace span around it (class 67).
  const std::string launches =
      Sqlite(file,
             "select printf('%d.%09d', r.start / 1000000000, r.start % 1000000000) from "
             "CUPTI_ACTIVITY_KIND_RUNTIME r join CUPTI_ACTIVITY_KIND_KERNEL k using (correlationId) "
             "where r.eventClass = 0 order by 1");
  std::string got;
  std::vector<std::string> starts;
  for (const DumpLine& d : dump)
    if (d.kind == "Link" && d.fields[5] == "Kernel") starts.push_back(d.fields[2]);
  std::sort(starts.begin(), starts.end());
  for (const std::string& s : starts) got += s + "\n";
  EXPECT_EQ(got, launches);
}

TEST(NsysSharedFile, KernelTimesAreTheTablesNanoseconds) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  const std::string file = SaxpyExport();
  const auto dump = Dump(file);
  std::string got;
  std::vector<std::string> kernels;
  for (const DumpLine& d : dump)
    if (d.kind == "State" && d.fields[1] == "Kernel") kernels.push_back(d.fields[2] + " " + d.fields[3]);
  std::sort(kernels.begin(), kernels.end());
  for (const std::string& k : kernels) got += k + "\n";
  EXPECT_EQ(got, Sqlite(file,
                        "select printf('%d.%09d %d.%09d', start / 1000000000, start % 1000000000, "
                        "end / 1000000000, end % 1000000000) from CUPTI_ACTIVITY_KIND_KERNEL order by 1"));
}

TEST(NsysSharedFile, WallClockIsTheSessionStartPlusTheFirstEvent) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  const std::string file = SaxpyExport();
  // The first event of the tables read (NVTX: ranges and marks, not the records naming
  // domains and threads), on the wall clock, as sqlite3 computes it.
  const std::string expected =
      Sqlite(file,
             "select strftime('%Y-%m-%d %H:%M:%S', (s.utcEpochNs + f.t) / 1000000000, 'unixepoch') || "
             "printf('.%09d', (s.utcEpochNs + f.t) % 1000000000) from TARGET_INFO_SESSION_START_TIME s, "
             "(select min(t) t from (select min(start) t from CUPTI_ACTIVITY_KIND_RUNTIME union all "
             "select min(start) from CUPTI_ACTIVITY_KIND_KERNEL union all select min(start) from "
             "CUPTI_ACTIVITY_KIND_MEMCPY union all select min(start) from NVTX_EVENTS "
             "where eventType in (34, 59, 60))) f");
  ASSERT_FALSE(expected.empty());
  const auto info = Macroscope("info --json " + Quote(file));
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_NE(info.out.find(expected.substr(0, expected.size() - 1)), std::string::npos) << expected << info.out;
}

TEST(NsysSharedFile, ThreadsAreNamedAsNsightNamesThem) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  const std::string file = SaxpyExport();
  const auto dump = Dump(file);
  std::vector<std::string> threads;
  for (const DumpLine& d : dump)
    if (d.kind == "Container" && d.fields.size() == 6 && d.fields[1] == "Thread") threads.push_back(d.fields[5]);
  // The one thread with CUDA calls and NVTX ranges: its ThreadNames name.
  const std::string name = Sqlite(file,
                                  "select s.value from ThreadNames t join StringIds s on s.id = t.nameId "
                                  "where t.globalTid = (select distinct globalTid from CUPTI_ACTIVITY_KIND_RUNTIME)");
  EXPECT_EQ(threads, std::vector<std::string>{name.substr(0, name.size() - 1)});
}

}  // namespace
}  // namespace macroscope::nsys_test
