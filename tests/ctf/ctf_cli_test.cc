// `macroscope info` on CTF traces: good ones read, broken ones are refused
// with exit code 1, one line naming the trace on stderr, nothing on stdout,
// and no babeltrace2 log lines. On copies of the shared test data (skipped
// without it) and on hand-made empty traces; ctf_recorded_test.cc repeats
// the broken cases on the trace the suite records itself.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "ctf_test_support.h"

namespace macroscope::ctf {
namespace {

namespace fs = std::filesystem;
using testing::CopyOf;
using testing::ExpectRefused;
using testing::ExpectSameWithThreads;
using testing::Info;
using testing::Overwrite;
using testing::SharedTrace;
using testing::TempDir;

TEST(CtfCli, InfoCountsEvents) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  testing::CommandResult r = Info(SharedTrace("ctf/bug446190"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("\"events\": 31556"), std::string::npos) << r.out;
}

TEST(CtfCli, MetadataFileStandsForItsTrace) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  testing::CommandResult r = Info(SharedTrace("ctf/perf-taskset2/metadata"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"events\": 1500"), std::string::npos) << r.out;
}

TEST(CtfCli, TruncatedStreamFile) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  TempDir dir;
  fs::path trace = CopyOf(dir, SharedTrace("ctf/bug446190"));
  fs::path stream = trace / "channel0_1";
  fs::resize_file(stream, fs::file_size(stream) / 2 + 7);
  ExpectRefused(Info(trace.string()), trace.string());
  ExpectSameWithThreads("info --json", trace.string(), testing::kThreadCounts);  // and the same with threads
}

TEST(CtfCli, TruncatedTextMetadata) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  TempDir dir;
  fs::path trace = CopyOf(dir, SharedTrace("ctf/mpi_allreduce"));
  fs::resize_file(trace / "metadata", fs::file_size(trace / "metadata") / 2);
  ExpectRefused(Info(trace.string()), trace.string());
}

TEST(CtfCli, CorruptPacketizedMetadata) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  TempDir dir;
  fs::path trace = CopyOf(dir, SharedTrace("ctf/flipping-endianness"));
  Overwrite(trace / "metadata", 300, std::string(64, '\xA5'));
  ExpectRefused(Info(trace.string()), trace.string());
}

TEST(CtfCli, CorruptMetadataMagic) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  TempDir dir;
  fs::path trace = CopyOf(dir, SharedTrace("ctf/bug446190"));
  Overwrite(trace / "metadata", 0, "\x01\x02\x03\x04");
  ExpectRefused(Info(trace.string()), trace.string());
}

// A stream whose packet sizes trip an assertion inside babeltrace2 (found
// by fuzz/ctf_reader_fuzzer; babeltrace2's own CLI aborts on it): a clear
// error, not an abort. The stream fits the metadata of mpi_ssend_irecv only.
TEST(CtfCli, StreamThatTripsBabeltraceAssertion) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  TempDir dir;
  fs::path trace = CopyOf(dir, SharedTrace("ctf/mpi_ssend_irecv"));
  fs::copy_file(fs::path(MACROSCOPE_SOURCE_DIR) / "tests/ctf/data/corrupt_packet_sizes.stream", trace / "0",
                fs::copy_options::overwrite_existing);
  testing::CommandResult r = Info(trace.string());
  ExpectRefused(r, trace.string());
  EXPECT_NE(r.err.find("babeltrace2 stopped on an internal check"), std::string::npos) << r.err;
  ExpectSameWithThreads("info --json", trace.string(), testing::kThreadCounts);  // and the same with threads
}

TEST(CtfCli, EmptyDirectory) {
  TempDir dir;
  ExpectRefused(Info(dir.path()), dir.path());
}

TEST(CtfCli, EmptyMetadataFile) {
  TempDir dir;
  fs::path trace = fs::path(dir.path()) / "trace";
  fs::create_directories(trace);
  std::ofstream(trace / "metadata").close();
  ExpectRefused(Info(trace.string()), trace.string());
}

}  // namespace
}  // namespace macroscope::ctf
