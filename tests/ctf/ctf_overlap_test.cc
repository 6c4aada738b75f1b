// CTF traces whose packets overlap: a packet that begins before the previous
// packet of its stream ends, as LTTng 2.1 wrote them. babeltrace2's muxer
// refuses them; macroscope reads them with one warning line. The traces are
// copies of tests/kernel's kernel-shaped barectf trace (the kernel_trace
// fixture) with packet contexts patched the way LTTng 2.1 got them wrong;
// the events themselves stay in order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "ctf_test_support.h"

namespace macroscope::ctf {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

// The packet context of the fixture's stream class (its metadata, from
// kernel_trace.yaml): after the 28-byte header, packet_size (bits) at 32,
// timestamp_begin at 48, timestamp_end at 56, little-endian; the clock
// counts nanoseconds. A packet's first event header starts at 80.
constexpr size_t kPacketSizeOffset = 32, kBeginOffset = 48, kEndOffset = 56, kFirstEventTimestampOffset = 88;

uint64_t U64(const std::string& bytes, size_t at) {
  uint64_t v = 0;
  std::memcpy(&v, bytes.data() + at, sizeof v);
  return v;
}
std::string Bytes(uint64_t v) { return std::string(reinterpret_cast<const char*>(&v), sizeof v); }

struct Packet {
  size_t offset;
  uint64_t begin, end;
};

std::vector<Packet> Packets(const fs::path& stream) {
  std::string bytes = testing::ReadText(stream.string());
  std::vector<Packet> packets;
  for (size_t at = 0; at + kEndOffset + 8 <= bytes.size();) {
    packets.push_back({at, U64(bytes, at + kBeginOffset), U64(bytes, at + kEndOffset)});
    uint64_t size = U64(bytes, at + kPacketSizeOffset) / 8;
    if (size == 0) break;
    at += size;
  }
  return packets;
}

// A copy of the fixture trace in `dir` where three packets overlap the next
// one of their stream: two ends moved 1000 ns and 250 ns past the next
// beginning, and one next beginning moved back to 1 ns after its
// predecessor's beginning (before that packet's events). Sets the overlaps
// expected.
fs::path OverlappingCopy(const TempDir& dir, PacketOverlaps& expected) {
  fs::path trace = testing::CopyOf(dir, KERNEL_TRACE_DIR);
  auto overlap = [&](int64_t ns) {
    ++expected.packets;
    expected.max_ns = std::max(expected.max_ns, ns);
    expected.total_ns += ns;
  };
  std::vector<Packet> cpu0 = Packets(trace / "channel0_0"), cpu1 = Packets(trace / "channel0_1");
  EXPECT_GE(cpu0.size(), 3u);
  EXPECT_GE(cpu1.size(), 5u);
  if (cpu0.size() < 3 || cpu1.size() < 5) return trace;
  auto patch = [&](const char* stream, size_t at, uint64_t value) {
    testing::Overwrite(trace / stream, static_cast<std::streamoff>(at), Bytes(value));
  };
  patch("channel0_0", cpu0[0].offset + kEndOffset, cpu0[1].begin + 1000);
  overlap(1000);
  patch("channel0_1", cpu1[1].offset + kEndOffset, cpu1[2].begin + 250);
  overlap(250);
  patch("channel0_1", cpu1[4].offset + kBeginOffset, cpu1[3].begin + 1);
  overlap(static_cast<int64_t>(cpu1[3].end - (cpu1[3].begin + 1)));
  return trace;
}

TEST(CtfOverlap, FixtureTraceHasNone) {
  Trace trace;
  CtfReadStats stats = ReadCtf({KERNEL_TRACE_DIR}, trace);
  EXPECT_EQ(stats.overlaps.packets, 0u);
  EXPECT_EQ(stats.overlaps.Warning(), "");
}

// The refusal the issue reports, so that this test notices when babeltrace2
// starts to read such traces itself.
TEST(CtfOverlap, BabeltraceRefusesIt) {
  TempDir dir;
  PacketOverlaps expected;
  fs::path trace = OverlappingCopy(dir, expected);
  testing::CommandResult r =
      testing::RunCommand(std::string(BABELTRACE2_COMMAND) + " " + testing::Quote(trace.string()));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("last returned timestamp"), std::string::npos) << r.err;
}

// Every event read, as babeltrace2 counts them in the unpatched trace, and
// the overlaps counted.
TEST(CtfOverlap, ReadsEveryEvent) {
  TempDir dir;
  PacketOverlaps expected;
  fs::path copy = OverlappingCopy(dir, expected);
  Trace original_trace, overlapping_trace;
  CtfReadStats original = ReadCtf({KERNEL_TRACE_DIR}, original_trace);
  CtfReadStats overlapping = ReadCtf({copy.string()}, overlapping_trace);
  EXPECT_EQ(overlapping.events, testing::BabeltraceCount(KERNEL_TRACE_DIR));
  EXPECT_EQ(overlapping.events, original.events);
  EXPECT_EQ(overlapping.per_name, original.per_name);
  EXPECT_EQ(overlapping.unmatched_exits, original.unmatched_exits);
  EXPECT_EQ(overlapping.overlaps.packets, expected.packets);
  EXPECT_EQ(overlapping.overlaps.max_ns, expected.max_ns);
  EXPECT_EQ(overlapping.overlaps.total_ns, expected.total_ns);
}

// `info` succeeds, reports what the unpatched trace reports, and says so on
// one warning line.
TEST(CtfOverlap, InfoWarnsOnce) {
  TempDir dir;
  PacketOverlaps expected;
  fs::path copy = OverlappingCopy(dir, expected);
  testing::CommandResult r = testing::Info(copy.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "macroscope: warning: " + copy.string() +
                       ": 3 packets overlapped the previous packet of their stream (by up to " +
                       std::to_string(expected.max_ns) + " ns)\n");
  testing::CommandResult plain = testing::Info(KERNEL_TRACE_DIR);
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(plain.err, "");
  EXPECT_NE(r.out.find("\"events\": " + std::to_string(testing::BabeltraceCount(KERNEL_TRACE_DIR))), std::string::npos)
      << r.out;
  // Counted over the streams read on threads: the same line.
  testing::ExpectSameWithThreads("info --json", copy.string(), testing::kThreadCounts);
}

// Events that themselves go back in time are not repaired: babeltrace2's
// muxer error, on one line naming the trace, without its developer details
// (addresses, key=value lists) nor the library's generic causes.
TEST(CtfOverlap, TimeGoingBackIsOneLine) {
  TempDir dir;
  fs::path trace = testing::CopyOf(dir, KERNEL_TRACE_DIR);
  std::vector<Packet> cpu1 = Packets(trace / "channel0_1");
  ASSERT_GE(cpu1.size(), 2u);
  // The second packet's first event, earlier than the first packet's events.
  testing::Overwrite(trace / "channel0_1", static_cast<std::streamoff>(cpu1[1].offset + kFirstEventTimestampOffset),
            Bytes(cpu1[0].begin + 5));
  testing::CommandResult r = testing::Info(trace.string());
  testing::ExpectRefused(r, trace.string());
  EXPECT_EQ(r.err.find("addr="), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("\"next\" method failed"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.rfind("macroscope: " + trace.string() + ": cannot decode the CTF trace: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("last returned timestamp\n"), std::string::npos) << r.err;  // the muxer's root cause
  testing::ExpectSameWithThreads("info --json", trace.string(), testing::kThreadCounts);  // and with threads
}

}  // namespace
}  // namespace macroscope::ctf
