// `macroscope info` on CTF traces: good ones read, broken ones are refused
// with exit code 1, one line naming the trace on stderr, nothing on stdout,
// and no babeltrace2 log lines. On copies of the shared test data (skipped
// without it) and on hand-made empty traces; ctf_recorded_test.cc repeats
// the broken cases on the trace the suite records itself.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

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

// An event 2^53 ns (104 days) or more after the first: babeltrace2 prints
// both, macroscope refuses the trace naming its path and the event's
// number (docs/time.md); 2^53 - 1 ns after it reads, to the ns.
TEST(CtfCli, TimesBeyondTheModelAreRefused) {
  TempDir dir;
  struct Case {
    std::string name, far;  // the second line's dmesg time: seconds.microseconds
    bool refused;
  };
  for (const Case& c : std::vector<Case>{{"far", "9007199.254741", true}, {"near", "9007199.254740", false}}) {
    const std::string input = dir.path() + "/" + c.name + ".txt", written = dir.path() + "/" + c.name;
    testing::WriteText(input, "[    0.000000] first\n[" + c.far + "] second\n");
    testing::CommandResult w = testing::WriteCtfWithBabeltrace2(
        "--component=source.text.dmesg --params=" + testing::Quote("path=\"" + input + "\""), written);
    ASSERT_EQ(w.exit_code, 0) << w.err;
    const std::string trace = written + "/" + c.name + ".txt";
    const std::vector<testing::BabeltraceEvent> reference = testing::BabeltraceEvents(trace);
    ASSERT_EQ(reference.size(), 2u);
    const int64_t apart = reference[1].ns - reference[0].ns;
    EXPECT_EQ(apart >= (int64_t{1} << 53), c.refused) << apart;
    testing::CommandResult r = Info(trace);
    if (!c.refused) {
      EXPECT_EQ(r.exit_code, 0) << r.err;
      Trace model;
      ReadCtf({trace}, model);
      EXPECT_EQ(ClockTicks(model.time_base(), model.end_time()), reference[1].ns);
      continue;
    }
    ExpectRefused(r, trace);
    EXPECT_EQ(r.err, "macroscope: " + trace + ": event 2: `string` at " + std::to_string(reference[1].ns) +
                         " ns from the clock's origin, 2^53 ns or more from the trace's first timed event (" +
                         std::to_string(reference[0].ns) + "), which macroscope cannot hold exactly\n");
    const std::string out = dir.path() + "/" + c.name + ".json";
    testing::CommandResult convert =
        testing::Macroscope("convert " + testing::Quote(trace) + " -o " + testing::Quote(out));
    EXPECT_EQ(convert.exit_code, 1);
    EXPECT_FALSE(fs::exists(out));
  }
}

// Traces without events, as babeltrace2 reads them (0 events, exit 0): its
// CTF writer's trace of a one-line kernel log (one stream, one packet, no
// clock), with the packet's content cut to its header and context (a
// stream without events), and without its stream file (metadata only).
TEST(CtfCli, TracesWithoutEventsOpenEmpty) {
  TempDir dir;
  const std::string input = dir.path() + "/one.txt", written = dir.path() + "/written";
  testing::WriteText(input, "a line without a timestamp\n");
  testing::CommandResult w = testing::WriteCtfWithBabeltrace2(
      "--component=source.text.dmesg --params=" + testing::Quote("path=\"" + input + "\""), written);
  ASSERT_EQ(w.exit_code, 0) << w.err;
  const fs::path original = fs::path(written) / "one.txt";
  ASSERT_TRUE(fs::exists(original / "metadata"));
  ASSERT_EQ(testing::BabeltraceCount(original.string()), 1u);

  // The packet context's packet_size and content_size (64-bit, in bits)
  // equal the file's size; the content then ends after the context
  // (content_size and packet_seq_num, 16 bytes).
  const fs::path empty_stream = fs::path(dir.path()) / "empty_stream";
  fs::copy(original, empty_stream);
  const std::string bytes = testing::ReadText((empty_stream / "stream").string());
  std::string bits(8, '\0');
  for (size_t i = 0, v = bytes.size() * 8; i < 8; ++i, v >>= 8) bits[i] = static_cast<char>(v & 0xFF);
  const size_t packet_size = bytes.find(bits), content_size = bytes.find(bits, packet_size + 8);
  ASSERT_NE(content_size, std::string::npos);
  std::string cut(8, '\0');
  for (size_t i = 0, v = (content_size + 16) * 8; i < 8; ++i, v >>= 8) cut[i] = static_cast<char>(v & 0xFF);
  Overwrite(empty_stream / "stream", static_cast<std::streamoff>(content_size), cut);

  const fs::path metadata_only = fs::path(dir.path()) / "metadata_only";
  fs::create_directories(metadata_only);
  fs::copy_file(original / "metadata", metadata_only / "metadata");

  for (const fs::path& trace : {empty_stream, metadata_only}) {
    testing::CommandResult reference =
        testing::RunCommand(std::string(BABELTRACE2_COMMAND) + " " + testing::Quote(trace.string()));
    EXPECT_EQ(reference.exit_code, 0) << trace << ": " << reference.err;
    EXPECT_EQ(testing::BabeltraceCount(trace.string()), 0u) << trace;
    Trace model;
    CtfReadStats stats = ReadCtf({trace.string()}, model);
    EXPECT_EQ(stats.events, 0u) << trace;
    EXPECT_EQ(model.CountEntities(TypeKind::kEvent) + model.CountEntities(TypeKind::kState), 0u) << trace;
    testing::CommandResult r = Info(trace.string());
    ASSERT_EQ(r.exit_code, 0) << trace << ": " << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_NE(r.out.find("\"events\": 0"), std::string::npos) << r.out;
    testing::CommandResult text = testing::Macroscope("info " + testing::Quote(trace.string()));
    EXPECT_EQ(text.exit_code, 0) << text.err;
    ExpectSameWithThreads("info --json", trace.string(), testing::kThreadCounts);
  }
  // With a trace that has events: its events alone.
  testing::CommandResult both = testing::Macroscope("info --json " + testing::Quote(metadata_only.string()) + " " +
                                                    testing::Quote(original.string()));
  EXPECT_EQ(both.exit_code, 0) << both.err;
  EXPECT_NE(both.out.find("\"events\": 1"), std::string::npos) << both.out;
}

}  // namespace
}  // namespace macroscope::ctf
