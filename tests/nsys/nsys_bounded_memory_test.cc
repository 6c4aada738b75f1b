// The Nsight reader in bounded memory: its records (spans to nest, calls
// and GPU work to link, simulator calls to replay) are sorted in a budget
// (the hidden --sort-memory), in runs in $TMPDIR beyond it; made tiny here,
// so that every sort writes runs and merges them in levels. The trace must
// be the default budget's: `dump` prints the same, warnings and refusals
// included, and a streamed read places the in-memory entities
// (tests/formats/streamed_readers_test.cc does so on the fixtures and the
// shared export).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "formats/format.h"
#include "nsys_test_helpers.h"
#include "placed_entities.h"
#include "test_support.h"

namespace macroscope::nsys_test {
namespace {

constexpr size_t kTinyBudget = 4096;

// `dump -l 9 -u FILES` with the default budget and with a tiny one: the
// same bytes on both outputs, the same exit code. Returns the first.
testing::CommandResult ExpectDumpSameWithTinyBudget(const std::vector<std::string>& files) {
  std::string args = "-l 9 -u";
  for (const std::string& f : files) args += " " + testing::Quote(f);
  const testing::CommandResult whole = testing::Macroscope("dump " + args);
  const testing::CommandResult runs =
      testing::Macroscope("dump --sort-memory " + std::to_string(kTinyBudget) + " " + args);
  EXPECT_EQ(runs.exit_code, whole.exit_code) << runs.err;
  EXPECT_EQ(runs.out, whole.out) << args;
  EXPECT_EQ(runs.err, whole.err) << args;
  return whole;
}

class NsysBoundedMemory : public ::testing::Test {
 protected:
  void SetUp() override {
    first_ = dir_.path() + "/first.sqlite";
    second_ = dir_.path() + "/second.sqlite";
    MakeDatabase(first_, GeneratedSql(300, 1700000000000000000));
    MakeDatabase(second_, GeneratedSql(200, 1700000000000000500));  // 500 ns after the first
  }
  testing::TempDir dir_;
  std::string first_, second_;
};

TEST_F(NsysBoundedMemory, GeneratedExportsGiveTheSameTrace) {
  const testing::CommandResult one = ExpectDumpSameWithTinyBudget({first_});
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_NE(one.err.find("range(s) outliving the range they start in"), std::string::npos) << one.err;
  EXPECT_NE(one.err.find("3 range(s) or call(s) without an end"), std::string::npos) << one.err;
  // GPU work sharing a correlationId numbers its links (key "12.2").
  EXPECT_NE(one.out.find(", 12.2\n"), std::string::npos);
  const testing::CommandResult two = ExpectDumpSameWithTinyBudget({first_, second_});
  ASSERT_EQ(two.exit_code, 0) << two.err;
  EXPECT_NE(two.out.find(", 1:12.2\n"), std::string::npos);
}

// Ranges starting together and ending at the trace end nest in reading
// order, whether their end is the file's or the trace's (never ended): the
// sort cannot know the trace end, the nesting puts them back.
TEST_F(NsysBoundedMemory, RangesEndingWithTheTraceNestInReadingOrder) {
  const std::vector<DumpLine> dump = Dump(first_);
  std::vector<std::string> at_start;  // "VALUE@LEVEL" of the NVTX ranges of thread 4242 at 500 ns
  for (const DumpLine& d : dump)
    if (d.kind == "State" && d.fields.size() > 6 && d.fields[0] == "Thread 4242" && d.fields[1] == "NVTX" &&
        d.fields[2] == "0.000000500")
      at_start.push_back(d.fields[6] + "@" + d.fields[5]);
  EXPECT_EQ(at_start, (std::vector<std::string>{"whole@0.000000000", "never popped@1.000000000",
                                                "never popped either@2.000000000"}));
}

TEST_F(NsysBoundedMemory, StreamedAsInMemory) {
  formats::ReadOptions options;
  options.paje.sort_memory = kTinyBudget;
  Trace model;
  formats::ReadTrace({first_, second_}, options, model);
  for (size_t interval : {size_t{1}, size_t{7}}) {
    SCOPED_TRACE("a drain every " + std::to_string(interval) + " entities");
    testing::PlacingSink sink;
    formats::ReadOptions streamed = options;
    streamed.sink = &sink;
    streamed.paje.simulator.drain_interval = interval;
    Trace trace;
    formats::ReadTrace({first_, second_}, streamed, trace);
    testing::ExpectPlacedAs(model, sink);
  }
}

TEST(NsysBoundedMemoryFixtures, GiveTheSameTrace) {
  testing::TempDir dir;
  const std::string synthetic = dir.path() + "/synthetic.sqlite";
  MakeDatabase(synthetic, kSyntheticSql);
  std::vector<std::vector<std::string>> cases{{synthetic}};
  for (const char* name : {"kernels-only", "older-schema"})
    cases.push_back({std::string(MACROSCOPE_SOURCE_DIR) + "/fuzz/corpus/nsys/" + name + ".sqlite"});
  for (const auto& files : cases) EXPECT_EQ(ExpectDumpSameWithTinyBudget(files).exit_code, 0) << files.front();
}

TEST(NsysBoundedMemoryFixtures, SharedExportGivesTheSameTrace) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  const testing::CommandResult r =
      ExpectDumpSameWithTinyBudget({testing::SharedTestData() + "/nsys/saxpy-mpi-cuda_nsys_perlmutter0.sqlite"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

// Refused once every row is sorted (times further apart than model times
// hold): the same message, naming the file.
TEST(NsysBoundedMemoryFixtures, RefusalsAreTheSame) {
  testing::TempDir dir;
  const std::string file = dir.path() + "/far.sqlite";
  MakeDatabase(file, GeneratedSql(50, 1700000000000000000) +
                         "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, "
                         "demangledName, shortName, registersPerThread, gridX, gridY, gridZ, blockX, blockY, "
                         "blockZ, staticSharedMemory, dynamicSharedMemory) "
                         "VALUES (9000000000000000000, 9000000000000000010, 0, 1, 7, 6, 5, 0, 1, 1, 1, 1, 1, 1, 0, "
                         "0);");
  const testing::CommandResult r = ExpectDumpSameWithTinyBudget({file});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("macroscope: " + file + ": ", 0), 0u) << r.err;
}

}  // namespace
}  // namespace macroscope::nsys_test
