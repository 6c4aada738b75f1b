// The reader on a small Nsight-like export made here with the sqlite3 CLI
// (nsys_test_helpers.cc): every table and column the reader uses, so the
// mapping is tested without the shared data. Counts are sqlite3's; the
// rest (nesting, links, cut ranges, times) follows from the rows written.
#include <gtest/gtest.h>

#include <algorithm>

#include "nsys_test_helpers.h"
#include "test_support.h"

namespace macroscope::nsys_test {
namespace {

using testing::Macroscope;
using testing::Quote;
using testing::TempDir;

class NsysSynthetic : public ::testing::Test {
 protected:
  void SetUp() override {
    file_ = dir_.path() + "/synthetic.sqlite";
    MakeDatabase(file_, kSyntheticSql);
  }
  // The dump's lines of `kind` whose value (or name) is `value`.
  static std::vector<DumpLine> Lines(const std::vector<DumpLine>& dump, const std::string& kind,
                                     const std::string& value) {
    std::vector<DumpLine> out;
    for (const DumpLine& d : dump)
      if (d.kind == kind && std::find(d.fields.begin(), d.fields.end(), value) != d.fields.end()) out.push_back(d);
    return out;
  }
  TempDir dir_;
  std::string file_;
};

TEST_F(NsysSynthetic, CountsPerTypeAndValueEqualSqlite) {
  const auto dump = Dump(file_);
  const auto states = DumpCounts(dump, "State");
  auto of_type = [&](const std::string& type) {
    std::map<std::string, uint64_t> out;
    for (const auto& [key, n] : states)
      if (key.rfind(type + "|", 0) == 0) out[key.substr(type.size() + 1)] = n;
    return out;
  };
  EXPECT_EQ(of_type("CUDA API"), SqliteCounts(file_,
                                              "select s.value, count(*) from CUPTI_ACTIVITY_KIND_RUNTIME r "
                                              "join StringIds s on s.id = r.nameId group by 1"));
  EXPECT_EQ(of_type("Kernel"), SqliteCounts(file_,
                                            "select s.value, count(*) from CUPTI_ACTIVITY_KIND_KERNEL k "
                                            "join StringIds s on s.id = k.shortName group by 1"));
  const int64_t host_to_device =
      SqliteCount(file_, "select count(*) from CUPTI_ACTIVITY_KIND_MEMCPY where copyKind = 1");
  EXPECT_EQ(of_type("Memcpy"),
            (std::map<std::string, uint64_t>{{"Host to device", static_cast<uint64_t>(host_to_device)}}));
  EXPECT_EQ(of_type("Memset")["Memset"],
            static_cast<uint64_t>(SqliteCount(file_, "select count(*) from CUPTI_ACTIVITY_KIND_MEMSET")));
  EXPECT_EQ(of_type("NVTX"), SqliteCounts(file_,
                                          "select coalesce(n.text, s.value), count(*) from NVTX_EVENTS n "
                                          "left join StringIds s on s.id = n.textId "
                                          "where n.eventType = 59 group by 1"));
  EXPECT_EQ(of_type("NVTX start/end"),
            SqliteCounts(file_, "select text, count(*) from NVTX_EVENTS where eventType = 60 group by 1"));
  EXPECT_EQ(of_type("OS runtime"), SqliteCounts(file_,
                                                "select s.value, count(*) from OSRT_API o "
                                                "join StringIds s on s.id = o.nameId group by 1"));
  const auto events = DumpCounts(dump, "Event");
  EXPECT_EQ(events, (std::map<std::string, uint64_t>{{"NVTX mark|checkpoint", 1}}));
}

TEST_F(NsysSynthetic, LinksGoFromEachLaunchToItsGpuWork) {
  const auto dump = Dump(file_);
  // GPU work whose correlationId a call carries (the kernel of correlation 99 has none).
  const int64_t expected =
      SqliteCount(file_,
                  "select count(*) from (select correlationId c from CUPTI_ACTIVITY_KIND_KERNEL union all "
                  "select correlationId from CUPTI_ACTIVITY_KIND_MEMCPY union all select correlationId from "
                  "CUPTI_ACTIVITY_KIND_MEMSET) where c in (select correlationId from CUPTI_ACTIVITY_KIND_RUNTIME)");
  ASSERT_EQ(expected, 4);
  std::vector<DumpLine> links;
  for (const DumpLine& d : dump)
    if (d.kind == "Link") links.push_back(d);
  ASSERT_EQ(links.size(), static_cast<size_t>(expected));
  // Link: container, type, start, end, duration, value, start container, end container, key.
  std::vector<std::string> seen;
  for (const DumpLine& l : links) {
    ASSERT_GE(l.fields.size(), 8u);
    seen.push_back(l.fields[2] + " " + l.fields[3] + " " + l.fields[5] + " " + l.fields[6] + " " + l.fields[7]);
  }
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, (std::vector<std::string>{
                      "0.000003000 0.000005000 Kernel main thread Stream 7",
                      "0.000003100 0.000006000 Kernel worker Stream 13",
                      "0.000004000 0.000008000 Memcpy main thread Stream 7",
                      "0.000009500 0.000009600 Memset main thread Stream 7",
                  }));
}

TEST_F(NsysSynthetic, NestedCallsAndRangesAreNestedStates) {
  const auto dump = Dump(file_);
  // State: container, type, start, end, duration, imbrication, value.
  auto state = [&](const std::string& value) {
    const auto lines = Lines(dump, "State", value);
    EXPECT_EQ(lines.size(), 1u) << value;
    return lines.empty() ? DumpLine{} : lines.front();
  };
  // Imbrication: the depth in the stack of the state's type on its thread.
  auto depth = [&](const std::string& value) { return std::stod(state(value).fields[5]); };
  EXPECT_EQ(depth("cudaMalloc"), 0);
  EXPECT_EQ(depth("cudaMalloc_v3020"), 1);
  EXPECT_EQ(depth("outer"), 0);
  EXPECT_EQ(depth("registered range"), 1);
  EXPECT_EQ(depth("async"), 0);
  EXPECT_EQ(depth("inner async"), 1);
  // A start/end range outliving the one it starts in is cut at its end.
  EXPECT_EQ(state("overlap").fields[2], "0.000011000");
  EXPECT_EQ(state("overlap").fields[3], "0.000012000");
  // A push without a pop lasts to the trace end (the last event, 13000 ns).
  EXPECT_EQ(state("never popped").fields[3], "0.000013000");
  EXPECT_EQ(state("never popped").fields[0], "worker");
  const auto r = Macroscope("info " + Quote(file_));
  EXPECT_NE(r.err.find("1 range(s) outliving the range they start in: cut at its end"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("1 range(s) or call(s) without an end"), std::string::npos) << r.err;
}

TEST_F(NsysSynthetic, TimesAreTheTablesNanoseconds) {
  const auto dump = Dump(file_);
  std::vector<std::string> kernels;
  for (const DumpLine& d : dump)
    if (d.kind == "State" && d.fields[1] == "Kernel") kernels.push_back(d.fields[2] + " " + d.fields[3]);
  std::sort(kernels.begin(), kernels.end());
  // The same times, printed by sqlite3 as seconds with 9 decimals from the integers.
  const std::string expected = Sqlite(file_,
                                      "select printf('%d.%09d %d.%09d', start / 1000000000, start % 1000000000, "
                                      "end / 1000000000, end % 1000000000) from CUPTI_ACTIVITY_KIND_KERNEL order by 1");
  std::string got;
  for (const std::string& k : kernels) got += k + "\n";
  EXPECT_EQ(got, expected);
  // The wall clock: the session start plus the first event (the OS runtime call at 200 ns).
  const auto info = Macroscope("info --json " + Quote(file_));
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_NE(info.out.find("2023-11-14 22:13:20.123456989"), std::string::npos) << info.out;
}

TEST_F(NsysSynthetic, ContainersAreNamedFromTheExport) {
  const auto dump = Dump(file_);
  std::vector<std::string> names;
  // Container: parent, type, start, end, duration, name (the root's type is 0).
  for (const DumpLine& d : dump)
    if (d.kind == "Container" && d.fields.size() == 6 && d.fields[1] != "0")
      names.push_back(d.fields[1] + ": " + d.fields[5]);
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"Context: Context 1", "GPU: GPU 0 (Test GPU)", "Process: scale-app [4242]",
                                             "Stream: Stream 13", "Stream: Stream 7", "Thread: main thread",
                                             "Thread: worker"}));
}

TEST_F(NsysSynthetic, KernelAndCopyFieldsAreKept) {
  // dump -u prints the user fields' values after the value, in the order of docs/nsys.md.
  const auto r = Macroscope("dump -u -l 9 " + Quote(file_));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* line : {
           "Kernel, 0.000005000, 0.000006000, 0.000001000, 0.000000000, scale, scale(float*, int), _Z5scalePfi, "
           "64x2x1, 256x1x1, 32, 1024, 0, 11\n",
           "Memcpy, 0.000008000, 0.000008800, 0.000000800, 0.000000000, Host to device, 1000000, 1250.000 GB/s, "
           "pageable, device, 12\n",
           "Memset, 0.000009600, 0.000009700, 0.000000100, 0.000000000, Memset, 4096, 0, device, 13\n",
           "CUDA API, 0.000001000, 0.000002000, 0.000001000, 0.000000000, cudaMalloc, backtrace, 10, 0\n",
           "CUDA API, 0.000003100, 0.000003400, 0.000000300, 0.000000000, cuLaunchKernel, driver, 20, 0\n",
           "NVTX, 0.000002500, 0.000009900, 0.000007400, 1.000000000, registered range, mydomain, #ff0000ff, 42\n",
           "NVTX start/end, 0.000002600, 0.000012000, 0.000009400, 0.000000000, async, 4243\n",
           "NVTX mark, 0.000004500, checkpoint, io\n",
       })
    EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;
}

TEST_F(NsysSynthetic, SeveralFilesArePlacedByTheirSessionStarts) {
  // A second rank whose session started 1000 ns after the first one's.
  std::string sql = kSyntheticSql;
  const std::string first_start = "1700000000123456789";
  sql.replace(sql.find(first_start), first_start.size(), "1700000000123457789");
  const std::string second = dir_.path() + "/second.sqlite";
  MakeDatabase(second, sql);
  const int64_t offset = SqliteCount(second, "select utcEpochNs from TARGET_INFO_SESSION_START_TIME") -
                         SqliteCount(file_, "select utcEpochNs from TARGET_INFO_SESSION_START_TIME");
  ASSERT_EQ(offset, 1000);
  const auto r = Macroscope("dump -l 9 " + Quote(file_) + " " + Quote(second));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> kernels, processes;
  for (const std::string& line : testing::SortedLines(r.out)) {
    if (line.rfind("Container, 0, Process, ", 0) == 0) processes.push_back(line);
    const std::string kernel = ", Kernel, ";
    if (line.rfind("State, ", 0) == 0 && line.find(kernel) != std::string::npos) {
      const size_t times = line.find(kernel) + kernel.size();
      kernels.push_back(line.substr(times, line.find(", ", line.find(", ", times) + 2) - times));
    }
  }
  EXPECT_EQ(processes.size(), 2u);
  // Each file's kernels, the second's on the first's clock.
  const std::string query =
      "select printf('%d.%09d, %d.%09d', (start + {o}) / 1000000000, (start + {o}) % 1000000000, "
      "(end + {o}) / 1000000000, (end + {o}) % 1000000000) from CUPTI_ACTIVITY_KIND_KERNEL";
  auto with_offset = [&](int64_t o) {
    std::string q = query;
    for (size_t at; (at = q.find("{o}")) != std::string::npos;) q.replace(at, 3, std::to_string(o));
    return q;
  };
  std::vector<std::string> expected =
      testing::SortedLines(Sqlite(file_, with_offset(0)) + Sqlite(second, with_offset(offset)));
  std::sort(kernels.begin(), kernels.end());
  EXPECT_EQ(kernels, expected);
  // Without a session start, a second file has no place on the first one's clock.
  MakeDatabase(second, "DELETE FROM TARGET_INFO_SESSION_START_TIME;");
  const auto refused = Macroscope("info " + Quote(file_) + " " + Quote(second));
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_EQ(refused.err.rfind("macroscope: " + second + ": no TARGET_INFO_SESSION_START_TIME", 0), 0u) << refused.err;
}

TEST_F(NsysSynthetic, StreamingReadsWhatTheModelHolds) {
  // A workflow's read module gives the reader a sink (docs/streaming.md): the
  // entities counted by name as they stream equal the in-memory dump's.
  const std::string csv = dir_.path() + "/counts.csv";
  const auto r = Macroscope("run --no-record -q " +
                            Quote(std::string(MACROSCOPE_SOURCE_DIR) + "/examples/workflows/count-by-name.json") +
                            " --set input=" + Quote(file_) + " --set output=" + Quote(csv));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, uint64_t> streamed;
  for (const std::string& line : testing::SortedLines(testing::ReadText(csv))) {
    const size_t comma = line.rfind(',');
    if (line == "name,count" || comma == std::string::npos) continue;
    streamed[line.substr(0, comma)] = std::stoull(line.substr(comma + 1));
  }
  std::map<std::string, uint64_t> dumped;
  const auto dump = Dump(file_);
  for (const char* kind : {"State", "Event", "Link"})
    for (const auto& [key, n] : DumpCounts(dump, kind)) dumped[key.substr(key.find('|') + 1)] += n;
  EXPECT_EQ(streamed, dumped);
}

TEST(NsysCallNames, CallsWithoutANameInStringIdsAreNamedByTheirCbid) {
  // Calls whose nameId is not in StringIds (or absent): the callback id, named
  // by the export's ENUM_CUDA_RUNTIME_API / ENUM_CUDA_DRIVER_API when it has them.
  TempDir dir;
  const std::string file = dir.path() + "/cbid.sqlite";
  MakeDatabase(file,
               "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
               "CREATE TABLE ENUM_CUDA_RUNTIME_API (id INTEGER, name TEXT);"
               "INSERT INTO ENUM_CUDA_RUNTIME_API VALUES (211, 'cudaLaunchKernel'), (31, 'cudaMemcpy');"
               "CREATE TABLE ENUM_CUDA_DRIVER_API (id INTEGER, name TEXT);"
               "INSERT INTO ENUM_CUDA_DRIVER_API VALUES (307, 'cuLaunchKernel');"
               "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, eventClass INTEGER,"
               " globalTid INTEGER, correlationId INTEGER, cbid INTEGER);"
               "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (10, 20, 0, 281546145665170, 1, 211),"
               " (30, 40, 0, 281546145665170, 2, 31), (50, 60, 0, 281546145665170, 3, 31),"
               " (70, 80, 1, 281546145665170, 4, 307), (90, 95, 0, 281546145665170, 5, 999);");
  std::map<std::string, uint64_t> calls;
  for (const auto& [key, n] : DumpCounts(Dump(file), "State")) calls[key.substr(key.find('|') + 1)] = n;
  auto expected = SqliteCounts(file,
                               "select coalesce(e.name, d.name), count(*) from CUPTI_ACTIVITY_KIND_RUNTIME r "
                               "left join ENUM_CUDA_RUNTIME_API e on e.id = r.cbid and r.eventClass = 0 "
                               "left join ENUM_CUDA_DRIVER_API d on d.id = r.cbid and r.eventClass = 1 "
                               "where coalesce(e.name, d.name) is not null group by 1");
  expected["runtime cbid 999"] = 1;
  EXPECT_EQ(calls, expected);
}

}  // namespace
}  // namespace macroscope::nsys_test
