// Damaged OTF2 archives: `macroscope info` exits 1 with one message naming
// the file on stderr and nothing on stdout, and never crashes.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <regex>

#include "formats/format.h"
#include "model/time_base.h"
#include "sample_archive.h"
#include "test_util.h"

namespace macroscope::otf2::testing {
namespace {

namespace fs = std::filesystem;

class Otf2BadInput : public ::testing::Test {
 protected:
  void SetUp() override { anchor_ = WriteSampleArchive(dir_.path()); }

  // `macroscope info PATH` refuses the input cleanly, naming `named`.
  void ExpectRefusal(const std::string& path, const std::string& named) {
    CommandResult r = RunCommand(std::string(MACROSCOPE_BINARY) + " info " + Quote(path));
    EXPECT_EQ(r.exit_code, 1) << "stderr: " << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find(named), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }

  static void Truncate(const fs::path& file, double keep) {
    fs::resize_file(file, static_cast<uintmax_t>(static_cast<double>(fs::file_size(file)) * keep));
  }

  TempDir dir_;
  std::string anchor_;
};

TEST_F(Otf2BadInput, TheSampleArchiveItselfReads) {
  CommandResult r = RunCommand(std::string(MACROSCOPE_BINARY) + " info " + Quote(anchor_));
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST_F(Otf2BadInput, TruncatedEventFile) {
  Truncate(dir_.path() + "/traces/0.evt", 0.5);
  ExpectRefusal(anchor_, anchor_);
}

TEST_F(Otf2BadInput, EmptyEventFile) {
  Truncate(dir_.path() + "/traces/1.evt", 0);
  ExpectRefusal(anchor_, anchor_);
}

TEST_F(Otf2BadInput, TruncatedGlobalDefinitions) {
  Truncate(dir_.path() + "/traces.def", 0.5);
  ExpectRefusal(anchor_, anchor_);
}

TEST_F(Otf2BadInput, TruncatedAnchor) {
  Truncate(anchor_, 0.5);
  ExpectRefusal(anchor_, anchor_);
}

TEST_F(Otf2BadInput, MissingEventFile) {
  fs::remove(dir_.path() + "/traces/2.evt");
  ExpectRefusal(anchor_, anchor_);
}

TEST_F(Otf2BadInput, CorruptedEventBytes) {
  fs::path evt = dir_.path() + "/traces/0.evt";
  Overwrite(evt, fs::file_size(evt) / 3, 16, '\xff');
  ExpectRefusal(anchor_, anchor_);
}

TEST_F(Otf2BadInput, CorruptedGlobalDefinitionBytes) {
  fs::path def = dir_.path() + "/traces.def";
  Overwrite(def, fs::file_size(def) / 2, 32, '\xff');
  ExpectRefusal(anchor_, anchor_);
}

TEST_F(Otf2BadInput, FolderWithoutAnchor) {
  fs::remove(anchor_);
  ExpectRefusal(dir_.path(), dir_.path());
}

TEST_F(Otf2BadInput, MissingAnchor) {
  fs::remove(anchor_);
  ExpectRefusal(anchor_, anchor_);
}

// A timestamp 2^53 ticks or more from the global offset (1000): refused
// with the archive, the location and the record's number (PROGRAM_END,
// the last of the 22); 2^53 - 1 ticks from it reads, to the tick. The
// timestamps are otf2-print's, independently of the reader.
TEST_F(Otf2BadInput, TimestampsBeyondTheModel) {
  constexpr uint64_t kOffset = 1000, kLimit = uint64_t{1} << 53;
  for (const uint64_t end : {kOffset + kLimit, kOffset + kLimit + 12345, uint64_t{1} << 63, ~uint64_t{0} - 1}) {
    TempDir dir;
    const std::string anchor = WriteSampleArchive(dir.path(), end);
    CommandResult print = RunCommand(std::string(OTF2_PRINT) + " " + Quote(anchor));
    ASSERT_EQ(print.exit_code, 0) << print.err;
    EXPECT_TRUE(std::regex_search(print.out, std::regex("\nPROGRAM_END +0 +" + std::to_string(end) + " ")))
        << print.out;
    CommandResult r = RunCommand(std::string(MACROSCOPE_BINARY) + " info " + Quote(anchor));
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "macroscope: " + anchor + ": location 0 'Master thread': a timestamp of " + std::to_string(end) +
                         " ticks, 2^53 ticks or more from the clock's global offset 1000, which macroscope cannot "
                         "hold exactly (event record 22)\n");
    // And with threads (location_threads.h): the same refusal.
    CommandResult threads = RunCommand(std::string(MACROSCOPE_BINARY) + " info --threads 2 " + Quote(anchor));
    EXPECT_EQ(threads.exit_code, 1);
    EXPECT_EQ(threads.err, r.err);
    const std::string out = dir.path() + "/out.json";
    CommandResult c = RunCommand(std::string(MACROSCOPE_BINARY) + " convert " + Quote(anchor) + " -o " + Quote(out));
    EXPECT_EQ(c.exit_code, 1);
    EXPECT_FALSE(fs::exists(out));
  }
  TempDir dir;
  const std::string anchor = WriteSampleArchive(dir.path(), kOffset + kLimit - 1);
  ASSERT_EQ(*Otf2PrintTicks(anchor).rbegin(), static_cast<int64_t>(kOffset + kLimit - 1));
  Trace trace;
  formats::ReadTrace({anchor}, {}, trace);
  EXPECT_EQ(ClockTicks(trace.time_base(), trace.end_time()), static_cast<int64_t>(kOffset + kLimit - 1));
}

// Every byte range of the event file overwritten in turn: refused or read,
// never a crash (exit 2 would be an internal error, -1 a signal).
TEST_F(Otf2BadInput, NoCrashOnAnyCorruptedEventRange) {
  fs::path evt = dir_.path() + "/traces/0.evt";
  std::string pristine = dir_.path() + "/pristine.evt";
  fs::copy_file(evt, pristine);
  const size_t size = fs::file_size(evt);
  for (size_t offset = 0; offset < size; offset += 7) {
    fs::copy_file(pristine, evt, fs::copy_options::overwrite_existing);
    Overwrite(evt, offset, 4, static_cast<char>(offset * 37));
    CommandResult r = RunCommand(std::string(MACROSCOPE_BINARY) + " info " + Quote(anchor_));
    EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << "offset " << offset << ": exit " << r.exit_code << "\n"
                                                      << r.err;
    if (r.exit_code == 1) {
      EXPECT_EQ(r.out, "") << "offset " << offset;
    }
  }
}

}  // namespace
}  // namespace macroscope::otf2::testing
