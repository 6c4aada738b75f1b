// Pajé files read by `mpirun -np N` in byte ranges (formats/paje/
// range_reading.h) give the single process's output byte for byte, the
// single process's message for a bad line in another rank's range, and,
// for a file that cannot be cut (a definition after the first event line),
// the single process's output still; `import` writes the single process's
// store.
#include <gtest/gtest.h>

#include <charconv>
#include <filesystem>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "mpi_support.h"

namespace macroscope::testing {
namespace {

// A generated trace of every entity kind: three container levels with
// states on the inner ones, nested states, events, links across
// containers, variables (about 2 MB).
class MpiPaje : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    CommandResult r = Macroscope("generate --depth 3 --arity 4 --values 5 --nested --nesting 2 --punctual --links "
                                 "--variables --inner --events 100000 -o " +
                                 Quote(Trace()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  static void TearDownTestSuite() { delete dir_; }
  static std::string Trace() { return dir_->path() + "/mixed.paje"; }

  // The trace, each line (its number, its text without "\n") replaced by
  // what `rewrite` gives, written to `name`.
  static std::string Rewritten(const std::string& name,
                               const std::function<std::string(uint64_t, const std::string&)>& rewrite) {
    std::istringstream in(ReadText(Trace()));
    std::ostringstream out;
    std::string line;
    for (uint64_t n = 1; std::getline(in, line); ++n) out << rewrite(n, line);
    const std::string path = dir_->path() + "/" + name;
    WriteText(path, out.str());
    return path;
  }
  // The trace with line `number` replaced by `lines` (or, with `before`,
  // `lines` inserted before it).
  static std::string Edited(const std::string& name, uint64_t number, const std::string& lines, bool before) {
    return Rewritten(name, [&](uint64_t n, const std::string& line) {
      return n != number ? line + "\n" : before ? lines + line + "\n" : lines;
    });
  }
  // The trace with every time multiplied by `factor` (written in full, as
  // the shortest decimal that reads back as the product).
  static std::string Scaled(const std::string& name, double factor) {
    return Rewritten(name, [&](uint64_t, const std::string& line) {
      // The generator's events from 6 on (containers, entities) begin with
      // their time: "ID TIME ...".
      if (line[0] == '%' || std::stoi(line) < 6) return line + "\n";
      const size_t at = line.find(' ') + 1, end = line.find(' ', at);
      char scaled[64];
      char* last = std::to_chars(scaled, scaled + sizeof scaled, std::stod(line.substr(at, end - at)) * factor,
                                 std::chars_format::fixed).ptr;
      return line.substr(0, at) + std::string(scaled, last) + line.substr(end) + "\n";
    });
  }
  static uint64_t LineCount() {
    const std::string text = ReadText(Trace());
    return static_cast<uint64_t>(std::count(text.begin(), text.end(), '\n'));
  }

  static TempDir* dir_;
};
TempDir* MpiPaje::dir_ = nullptr;

TEST_F(MpiPaje, StatsAreTheSingleProcesss) {
  double exchanged = 0;
  ExpectSameUnderMpirun("stats --format csv " + Quote(Trace()), &exchanged);
  // Read in parts: the entity lines of rank 1's containers cross.
  EXPECT_GT(exchanged, 100000) << "not read by byte range";
  ExpectSameUnderMpirun("stats --format json --start +1000 --end +9000 " + Quote(Trace()));
}

TEST_F(MpiPaje, StatsOfTimesThatAreNotWholeAreTheSingleProcesss) {
  // Times scaled by 0.0013: plain sums of state times round differently in
  // the ranks' order than in the single process's (the last bits of total,
  // mean and share); exact sums merged on rank 0 are the same doubles.
  const std::string scaled = Scaled("scaled.paje", 0.0013);
  ExpectSameUnderMpirun("stats --format csv " + Quote(scaled));
  ExpectSameUnderMpirun("stats --format json --start +1.3 --end +11.7 " + Quote(scaled));
}

TEST_F(MpiPaje, AggregationsAreTheSingleProcesss) {
  ExpectSameUnderMpirun("aggregate --plist --no-cache " + Quote(Trace()));
  ExpectSameUnderMpirun("aggregate --mode spatiotemporal --p 0.3 --no-cache --slices 20 " + Quote(Trace()));
  ExpectSameUnderMpirun("aggregate --metric link-count --plist --format csv --no-cache " + Quote(Trace()));
}

TEST_F(MpiPaje, InfoIsTheSingleProcesss) {
  ExpectSameUnderMpirun("info " + Quote(Trace()));
  ExpectSameUnderMpirun("info --json " + Quote(Trace()));
}

// `import` under mpirun: the ranks' stores gathered on rank 0, which writes
// the single process's store, byte for byte. `files`: quoted.
void ExpectSameStore(const std::string& files, const std::string& dir) {
  const std::string one = dir + "/one.mstore", many = dir + "/many.mstore";
  CommandResult r = Macroscope("import -q " + files + " -o " + Quote(one));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (int ranks : {2, 4}) {
    std::filesystem::remove(many);
    r = Mpirun(ranks, "import -q " + files + " -o " + Quote(many));
    ASSERT_EQ(r.exit_code, 0) << ranks << " ranks: " << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_TRUE(ReadText(many) == ReadText(one)) << ranks << " ranks: the stores differ";
  }
}

TEST_F(MpiPaje, ImportWritesTheSingleProcesssStore) {
  TempDir dir;
  ExpectSameStore(Quote(Trace()), dir.path());
  // User fields, links ending first, containers destroyed with their children.
  for (const char* name : {"user_fields", "links_end_first", "destroy_with_children"})
    ExpectSameStore(Quote(std::string(MACROSCOPE_SOURCE_DIR) + "/tests/paje/traces/" + name + ".trace"), dir.path());
}

TEST_F(MpiPaje, PayloadsInManyRoundsAreTheSame) {
  // MPI counts are ints: payloads travel in rounds (src/mpi/world_mpi.cc),
  // here of 4 kB, so that every collective takes several.
  TempDir dir;
  const std::string one = dir.path() + "/one.mstore", many = dir.path() + "/many.mstore";
  ASSERT_EQ(Macroscope("import -q " + Quote(Trace()) + " -o " + Quote(one)).exit_code, 0);
  CommandResult r = Mpirun(3, "import -q " + Quote(Trace()) + " -o " + Quote(many), "MACROSCOPE_MPI_ROUND_BYTES=4096");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(ReadText(many) == ReadText(one)) << "the stores differ";
  r = Mpirun(3, "aggregate --plist --no-cache " + Quote(Trace()), "MACROSCOPE_MPI_ROUND_BYTES=4096");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, Macroscope("aggregate --plist --no-cache " + Quote(Trace())).out);
}

TEST_F(MpiPaje, BadLineInRank1sRangeIsTheSingleProcesssError) {
  // Three quarters into the file: rank 1's range of 2, rank 2's of 4.
  const uint64_t line = LineCount() * 3 / 4;
  ExpectSameErrorUnderMpirun("stats " + Quote(Edited("bad-fields.paje", line, "14 1 c0.0.0\n", false)));
  ExpectSameErrorUnderMpirun("stats " + Quote(Edited("bad-id.paje", line, "77 1 c0.0.0\n", false)));
  // A state of a container no line created.
  const std::string unknown = Edited("bad-container.paje", line, "10 1 nowhere S v0\n", true);
  ExpectSameErrorUnderMpirun("aggregate --p 0.5 " + Quote(unknown));
  // Time going backwards in a container (the message suggests --sort).
  ExpectSameErrorUnderMpirun("info " + Quote(Edited("backwards.paje", line, "10 1 c0.0.0 S v0\n", true)));
}

// The trace cut into three files read in order as one trace, the second
// and third with headers of their own (definitions of one file hold for
// the next; the third's has a user field), each using its new event.
class MpiPajeFiles : public MpiPaje {
 protected:
  void SetUp() override {
    std::istringstream in(ReadText(Trace()));
    for (std::string line; std::getline(in, line);) lines_.push_back(line + "\n");
    const size_t a = lines_.size() / 3, b = 2 * lines_.size() / 3;
    // A line's time: its second word (the generator's lines all have one).
    auto time = [&](size_t n) {
      std::istringstream words(lines_[n - 1]);
      std::string id, t;
      words >> id >> t;
      return t;
    };
    Write("one.paje", 1, a, "", "");
    Write("two.paje", a + 1, b,
          "%EventDef PajeNewEvent 99\n% Time date\n% Container string\n% Type string\n% Value string\n"
          "%EndEventDef\n",
          "99 " + time(b) + " c0.0.0 E tick\n");
    Write("three.paje", b + 1, lines_.size(),
          "# the end\n%EventDef PajeNewEvent 98\n% Time date\n% Container string\n% Type string\n"
          "% Value string\n% Note string\n%EndEventDef\n98 " + time(b) + " c0.0.1 E tick \"a note\"\n",
          "");
    files_ = Quote(dir_.path() + "/one.paje") + " " + Quote(dir_.path() + "/two.paje") + " " +
             Quote(dir_.path() + "/three.paje");
  }
  // Lines [first, last] of the trace between `head` and `tail`.
  void Write(const std::string& name, size_t first, size_t last, const std::string& head, const std::string& tail) {
    std::string text = head;
    for (size_t n = first; n <= last; ++n) text += lines_[n - 1];
    WriteText(dir_.path() + "/" + name, text + tail);
  }
  TempDir dir_;
  std::vector<std::string> lines_;
  std::string files_;
};

TEST_F(MpiPajeFiles, SeveralFilesAreTheSingleProcesss) {
  double exchanged = 0;
  ExpectSameUnderMpirun("stats --format csv " + files_, &exchanged);
  EXPECT_GT(exchanged, 100000) << "not read by byte range";
  ExpectSameUnderMpirun("info --json " + files_);
  ExpectSameStore(files_, dir_.path());
}

TEST_F(MpiPajeFiles, EventOfALaterHeaderIsUnknownBefore) {
  Write("one.paje", 1, lines_.size() / 3, "", "99 1 c0.0.0 E tick\n");
  ExpectSameErrorUnderMpirun("info " + files_);
}

TEST_F(MpiPaje, LateDefinitionReadsWholeWithTheSameResult) {
  const std::string late = Edited("late.paje", LineCount() / 4,
                                  "%EventDef PajeNewEvent 99\n% Time date\n% Type string\n% Container string\n"
                                  "% Value string\n%EndEventDef\n",
                                  true);
  ExpectSameUnderMpirun("stats --format csv " + Quote(late));
  ExpectSameUnderMpirun("aggregate --plist --no-cache " + Quote(late));
  ExpectSameUnderMpirun("info --json " + Quote(late));
}

TEST(MpiPajeExamples, SmallTracesAreTheSingleProcesss) {
  ExpectSameUnderMpirun("stats " + Quote(std::string(MACROSCOPE_SOURCE_DIR) + "/examples/synthetic.trace"));
  // The pj_dump comparisons' corner cases, a few lines each: ranges with
  // no line, a header longer than a range.
  for (const char* name : {"destroy_with_children", "links_end_first", "events_at_last_time", "user_fields",
                           "comments_mid_line", "value_aliases"}) {
    SCOPED_TRACE(name);
    ExpectSameUnderMpirun("info --json " +
                          Quote(std::string(MACROSCOPE_SOURCE_DIR) + "/tests/paje/traces/" + name + ".trace"));
  }
}

}  // namespace
}  // namespace macroscope::testing
