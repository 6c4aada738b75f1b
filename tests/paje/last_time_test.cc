// The end time told from a Pajé file's header and last line
// (formats/paje/last_time.h) is the one a whole reading ends at, to the
// bit, on every trace the pj_dump comparisons read, on hand-written edge
// cases and on a generated trace; or nothing, where it cannot be told so.
#include "formats/paje/last_time.h"

#include <bit>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "formats/paje/reader.h"
#include "model/trace.h"
#include "test_support.h"
#include "util/error.h"

namespace macroscope::testing {
namespace {

using paje::LastEventTime;

// The end time of a whole reading of `file`, or nothing when it refuses it.
std::optional<double> ReadingEnd(const std::string& file, bool no_strict) {
  paje::ReadOptions options;
  options.no_strict = no_strict;
  Trace trace;
  try {
    paje::ReadPaje({file}, options, trace);
  } catch (const UserError&) {
    return std::nullopt;
  }
  return trace.end_time();
}

// `told` is the reading's end to the bit (NaN included), or nothing.
// Returns whether they were compared.
bool ExpectToldOrNothing(const std::string& file, bool no_strict, bool ordinary) {
  SCOPED_TRACE(file + (no_strict ? " (no strict)" : ""));
  const std::optional<double> told = LastEventTime(file, no_strict);
  const std::optional<double> end = ReadingEnd(file, no_strict);
  if (!end) return false;  // refused: the reading says why
  if (ordinary) {
    EXPECT_TRUE(told.has_value()) << "reading ends at " << *end;
  }
  if (told) {
    EXPECT_EQ(std::bit_cast<uint64_t>(*told), std::bit_cast<uint64_t>(*end)) << *told << " vs " << *end;
  }
  return told.has_value();
}

// The traces tests/paje/CMakeLists.txt compares with pj_dump (pajeng's
// examples, the edge cases and the bad inputs), as it lists them.
std::vector<std::string> ComparedTraces() {
  std::vector<std::string> files;
  for (const std::string& line : SortedLines(ReadText(LAST_TIME_TRACES)))
    if (!line.empty()) files.push_back(line);
  return files;
}

TEST(LastEventTimeTest, EveryComparedTraceEndsWhereItsReadingEnds) {
  // Those told nothing: the file names another, or holds no event line.
  const std::set<std::string> unknown = {"root.trace", "no_events.trace"};
  const std::vector<std::string> files = ComparedTraces();
  ASSERT_GT(files.size(), 30u);
  int compared = 0;
  for (const std::string& file : files) {
    const bool ordinary = !unknown.contains(std::filesystem::path(file).filename().string());
    compared += ExpectToldOrNothing(file, false, ordinary);
    compared += ExpectToldOrNothing(file, true, ordinary);
  }
  EXPECT_GT(compared, 50) << "traces read and told";
}

constexpr const char* kHeader =
    "%EventDef PajeDefineContainerType 0\n"
    "% Alias string\n"
    "% Type string\n"
    "% Name string\n"
    "%EndEventDef\n"
    "%EventDef PajeDefineStateType 1\n"
    "% Alias string\n"
    "% Type string\n"
    "% Name string\n"
    "%EndEventDef\n"
    "%EventDef PajeCreateContainer 2\n"
    "% Time date\n"
    "% Alias string\n"
    "% Type string\n"
    "% Container string\n"
    "% Name string\n"
    "%EndEventDef\n"
    "%EventDef PajeSetState 3\n"
    "% Time date\n"
    "% Type string\n"
    "% Container string\n"
    "% Value string\n"
    "%EndEventDef\n";
constexpr const char* kBody =
    "0 T 0 Thread\n"
    "1 S T State\n"
    "2 0 a T 0 a\n"
    "3 1.25 S a run\n";

class LastEventTimeCase : public ::testing::Test {
 protected:
  // LastEventTime of a file holding `text`.
  std::optional<double> Told(const std::string& text) {
    WriteText(File(), text);
    return LastEventTime(File(), false);
  }
  // `text` is told to end at `expected`, and a whole reading ends there.
  void ExpectEnd(const std::string& text, double expected) {
    ASSERT_EQ(Told(text), expected);
    EXPECT_EQ(ReadingEnd(File(), false), expected);
  }
  std::string File() const { return dir_.path() + "/case.trace"; }

  TempDir dir_;
};

TEST_F(LastEventTimeCase, PlainLastLine) { ExpectEnd(std::string(kHeader) + kBody, 1.25); }

TEST_F(LastEventTimeCase, TrailingBlankAndCommentLines) {
  ExpectEnd(std::string(kHeader) + kBody + "\n   \n# 3 9 S a late\n\t# more\n\n", 1.25);
}

TEST_F(LastEventTimeCase, QuotedWordsWithHashAndBlanks) {
  // The '#' inside the quotes starts no comment; the one after it does.
  ExpectEnd(std::string(kHeader) + kBody + "3 2.5 S a \"x # y \" # 3 9 S a z\n", 2.5);
  // A quote left open runs to the line's end, '#' and all.
  ExpectEnd(std::string(kHeader) + kBody + "3 3.5 S a \"open # 3 9 S a z\n", 3.5);
}

TEST_F(LastEventTimeCase, NoFinalNewline) { ExpectEnd(std::string(kHeader) + kBody + "3 4 S a end", 4); }

TEST_F(LastEventTimeCase, CrlfLineEnds) {
  std::string text = std::string(kHeader) + kBody + "3 5.5 S a crlf\n\n";
  for (size_t at = text.find('\n'); at != std::string::npos; at = text.find('\n', at + 2)) text.insert(at, "\r");
  ExpectEnd(text, 5.5);
}

TEST_F(LastEventTimeCase, UntimedDefinitionLastGivesZero) {
  ExpectEnd(std::string(kHeader) + kBody + "1 S2 T \"State 2\"\n", 0);
}

TEST_F(LastEventTimeCase, SignedExponentTime) { ExpectEnd(std::string(kHeader) + kBody + "3 +1.5e3 S a x\n", 1500); }

TEST_F(LastEventTimeCase, LongLinesAndCommentsBeyondTheWindow) {
  // The last line starts over 64 KB before the end, behind a long comment
  // tail: the window grows until a whole line with words is in it.
  const std::string word(100000, 'w');
  ExpectEnd(std::string(kHeader) + kBody + "3 6 S a " + word + "\n#" + word + "\n# " + word + "\n", 6);
  ExpectEnd(std::string(kHeader) + kBody + "3 7 S a \"" + word + "\n", 7);
}

TEST_F(LastEventTimeCase, NewlineAfterAnOpeningQuoteJoinsTheLines) {
  // The character after an opening quote is the word's, a newline too:
  // the line after it is the quoted word's rest. The first window (the
  // last 64 KB) starts on the line that ends with a quote.
  const std::string last = "3 9 S a " + std::string((size_t{64} << 10) - 6 - 9, 'w') + "\n";
  ExpectEnd(std::string(kHeader) + kBody + "3 8 S a \"\n" + last, 8);
  ExpectEnd(std::string(kHeader) + kBody + "3 8 S \"a\"\"\n" + last, 8);
  // Closing quotes: two lines.
  ExpectEnd(std::string(kHeader) + kBody + "3 8 S a \"run 1\"\n" + last, 9);
  ExpectEnd(std::string(kHeader) + kBody + "3 8 S a \"run \"\n" + last, 9);
}

TEST_F(LastEventTimeCase, FirstEventLineLast) { ExpectEnd(std::string(kHeader) + "0 T 0 Thread\n", 0); }

TEST_F(LastEventTimeCase, NothingToTell) {
  EXPECT_EQ(Told(std::string(kHeader) + kBody + "9 2 S a x\n"), std::nullopt) << "unknown id";
  EXPECT_EQ(Told(std::string(kHeader) + kBody + "3 2 S a\n"), std::nullopt) << "too few fields";
  EXPECT_EQ(Told(std::string(kHeader) + kBody + "3 two S a x\n"), std::nullopt) << "time no number";
  EXPECT_EQ(Told(std::string(kHeader) + kBody + "%EventDef PajeSetState 9\n% Time date\n"), std::nullopt)
      << "definition last";
  EXPECT_EQ(Told(std::string(kHeader) + kBody + "%EventDef PajeNewEvent 9\n% Time date\n% Type string\n"
                 "% Container string\n% Value string\n%EndEventDef\n9 2 S a x\n"),
            std::nullopt)
      << "id of a later header";
  EXPECT_EQ(Told(std::string(kHeader) + "%EventDef PajeTraceFile 9\n% Time date\n% Container string\n"
                 "% Filename string\n%EndEventDef\n" + kBody),
            std::nullopt)
      << "PajeTraceFile defined";
  EXPECT_EQ(Told(std::string(kHeader) + "%EventDef PajeSetState 3\n% Time date\n% Type string\n"
                 "% Container string\n% Value string\n%EndEventDef\n" + kBody),
            std::nullopt)
      << "id defined twice";
  EXPECT_EQ(Told("%EventDef PajeSetState 3\n% Time date\n3 2 S a x\n"), std::nullopt) << "open definition";
  EXPECT_EQ(Told("%EventDef PajeBogus 3\n%EndEventDef\n3 2 S a x\n"), std::nullopt) << "bad header";
  EXPECT_EQ(Told(""), std::nullopt) << "empty file";
  EXPECT_EQ(Told("\n# nothing\n"), std::nullopt) << "comments only";
  EXPECT_EQ(Told(kHeader), std::nullopt) << "header only";
  EXPECT_EQ(LastEventTime("-", false), std::nullopt) << "standard input";
  EXPECT_EQ(LastEventTime(dir_.path() + "/missing.trace", false), std::nullopt) << "missing file";
  EXPECT_EQ(LastEventTime(dir_.path(), false), std::nullopt) << "a folder";
}

TEST_F(LastEventTimeCase, OldFieldNamesOnlyWithNoStrict) {
  const std::string text = std::string(kHeader) +
                           "%EventDef PajeSetState 9\n% Time date\n% EntityType string\n% Container string\n"
                           "% Value string\n%EndEventDef\n" + kBody + "9 8 S a x\n";
  EXPECT_EQ(Told(text), std::nullopt);
  EXPECT_EQ(LastEventTime(File(), true), 8);
}

TEST(LastEventTimeTest, GeneratedTraceEndsWhereItsReadingEnds) {
  TempDir dir;
  const std::string file = dir.path() + "/generated.trace";
  CommandResult g = Macroscope("generate --events 200000 --nested --punctual --links --variables --inner -o " +
                               Quote(file));
  ASSERT_EQ(g.exit_code, 0) << g.err;
  ASSERT_GT(std::filesystem::file_size(file), 3u << 20);
  const std::optional<double> told = LastEventTime(file, false);
  ASSERT_TRUE(told.has_value());
  EXPECT_EQ(told, ReadingEnd(file, false));
}

}  // namespace
}  // namespace macroscope::testing
