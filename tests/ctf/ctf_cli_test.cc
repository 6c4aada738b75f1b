// `macroscope info` on CTF traces: good ones read, broken ones are refused
// with exit code 1, one line naming the trace on stderr, nothing on stdout,
// and no babeltrace2 log lines.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "ctf_test_support.h"

namespace macroscope::ctf {
namespace {

namespace fs = std::filesystem;
using testing::Quote;
using testing::RunCommand;
using testing::TempDir;
using testing::TestdataDir;

testing::Run Info(const std::string& path) {
  return RunCommand(std::string(MACROSCOPE_BINARY) + " info --json " + Quote(path));
}

void ExpectRefused(const testing::Run& r, const std::string& path) {
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

// A copy of a test trace that a test may break.
fs::path CopyOf(const TempDir& dir, const std::string& name) {
  fs::path target = dir.path / fs::path(name).filename();
  fs::copy(TestdataDir() + "/" + name, target, fs::copy_options::recursive);
  return target;
}

TEST(CtfCli, InfoCountsEvents) {
  testing::Run r = Info(TestdataDir() + "/ctf/bug446190");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("\"events\": 31556"), std::string::npos) << r.out;
}

TEST(CtfCli, MetadataFileStandsForItsTrace) {
  testing::Run r = Info(TestdataDir() + "/ctf/perf-taskset2/metadata");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"events\": 1500"), std::string::npos) << r.out;
}

TEST(CtfCli, TruncatedStreamFile) {
  TempDir dir;
  fs::path trace = CopyOf(dir, "ctf/bug446190");
  fs::path stream = trace / "channel0_1";
  fs::resize_file(stream, fs::file_size(stream) / 2 + 7);
  ExpectRefused(Info(trace.string()), trace.string());
}

TEST(CtfCli, TruncatedTextMetadata) {
  TempDir dir;
  fs::path trace = CopyOf(dir, "ctf/mpi_allreduce");
  fs::resize_file(trace / "metadata", fs::file_size(trace / "metadata") / 2);
  ExpectRefused(Info(trace.string()), trace.string());
}

TEST(CtfCli, CorruptPacketizedMetadata) {
  TempDir dir;
  fs::path trace = CopyOf(dir, "ctf/flipping-endianness");
  std::fstream f(trace / "metadata", std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(300);
  std::string garbage(64, '\xA5');
  f.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
  f.close();
  ExpectRefused(Info(trace.string()), trace.string());
}

TEST(CtfCli, CorruptMetadataMagic) {
  TempDir dir;
  fs::path trace = CopyOf(dir, "ctf/bug446190");
  std::fstream f(trace / "metadata", std::ios::in | std::ios::out | std::ios::binary);
  f.write("\x01\x02\x03\x04", 4);
  f.close();
  ExpectRefused(Info(trace.string()), trace.string());
}

// A stream whose packet sizes trip an assertion inside babeltrace2 (found
// by fuzz/ctf_reader_fuzzer; babeltrace2's own CLI aborts on it): a clear
// error, not an abort.
TEST(CtfCli, StreamThatTripsBabeltraceAssertion) {
  TempDir dir;
  fs::path trace = CopyOf(dir, "ctf/mpi_ssend_irecv");
  fs::copy_file(fs::path(MACROSCOPE_SOURCE_DIR) / "tests/ctf/data/corrupt_packet_sizes.stream", trace / "0",
                fs::copy_options::overwrite_existing);
  testing::Run r = Info(trace.string());
  ExpectRefused(r, trace.string());
  EXPECT_NE(r.err.find("babeltrace2 stopped on an internal check"), std::string::npos) << r.err;
}

TEST(CtfCli, EmptyDirectory) {
  TempDir dir;
  ExpectRefused(Info(dir.path.string()), dir.path.string());
}

TEST(CtfCli, EmptyMetadataFile) {
  TempDir dir;
  fs::create_directories(dir.path / "trace");
  std::ofstream(dir.path / "trace" / "metadata").close();
  ExpectRefused(Info((dir.path / "trace").string()), (dir.path / "trace").string());
}

}  // namespace
}  // namespace macroscope::ctf
