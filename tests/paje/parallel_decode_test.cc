// Parallel Pajé decoding (chunk_decoder.h): event lines decoded by chunk
// workers on chunks cut at line boundaries must give what the line-by-line
// read (--threads 1) gives, byte for byte: the same dump, or the same
// refusal at the same file:line. Tiny chunks (the hidden --chunk-bytes)
// put every line, definitions and errors among them, in a chunk of its own
// or near a chunk's edge. The peer of both is pj_dump on the traces the
// pj_dump_equal tests read.
#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.h"

namespace macroscope::testing {
namespace {

const char* const kChunkSizes[] = {"1", "100", "4096"};

// `macroscope dump ARGS` with `threads` and `chunk` (empty: the default).
CommandResult Dump(const std::string& args, const std::string& threads, const std::string& chunk = "") {
  return Macroscope("dump --threads " + threads + (chunk.empty() ? "" : " --chunk-bytes " + chunk) + " " + args);
}

// Every chunk size gives what one thread gives; a read both accept matches
// pj_dump's line set when pj_dump accepts the trace.
void ExpectSameAsSequential(const std::string& trace, const std::string& options = "") {
  SCOPED_TRACE(trace + " " + options);
  const std::string args = options + " " + Quote(trace);
  CommandResult one = Dump(args, "1");
  ASSERT_TRUE(one.exit_code == 0 || one.exit_code == 1) << one.err;
  for (const char* chunk : kChunkSizes) {
    CommandResult many = Dump(args, "3", chunk);
    EXPECT_EQ(many.exit_code, one.exit_code) << "chunks of " << chunk << ": " << many.err;
    EXPECT_EQ(many.err, one.err) << "chunks of " << chunk;
    EXPECT_TRUE(many.out == one.out) << "chunks of " << chunk << ": the dumps differ";
  }
  if (one.exit_code != 0) return;
  CommandResult peer = RunCommand("pj_dump " + args);
  if (peer.exit_code != 0 || peer.out.find("Exception") != std::string::npos) return;
  EXPECT_TRUE(SortedLines(Dump(args, "3", "100").out) == SortedLines(peer.out)) << "not pj_dump's lines";
}

std::vector<std::string> Traces(const std::string& directory) {
  std::vector<std::string> traces;
  for (const auto& entry : std::filesystem::directory_iterator(directory))
    if (entry.path().extension() == ".trace") traces.push_back(entry.path().string());
  std::sort(traces.begin(), traces.end());
  return traces;
}

TEST(ParallelDecodeTest, PajengExamplesAsSequentialAndPjDump) {
  CommandResult list = RunCommand("dpkg -L pajeng | grep '\\.trace$'");
  ASSERT_EQ(list.exit_code, 0) << list.err;
  std::istringstream in(list.out);
  int traces = 0;
  for (std::string trace; std::getline(in, trace); ++traces) {
    ExpectSameAsSequential(trace);
    ExpectSameAsSequential(trace, "-n");
  }
  EXPECT_GT(traces, 10);
}

TEST(ParallelDecodeTest, EdgeCasesAsSequentialAndPjDump) {
  for (const std::string& trace : Traces(std::string(MACROSCOPE_SOURCE_DIR) + "/tests/paje/traces"))
    ExpectSameAsSequential(trace);
  ExpectSameAsSequential(std::string(MACROSCOPE_SOURCE_DIR) + "/tests/paje/bad/old_field_names.trace", "-n");
}

TEST(ParallelDecodeTest, BadInputRefusedAtTheSameLine) {
  for (const std::string& trace : Traces(std::string(MACROSCOPE_SOURCE_DIR) + "/tests/paje/bad"))
    ExpectSameAsSequential(trace);
}

class GeneratedTraceTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    CommandResult g = Macroscope("generate --events 100000 --nested --punctual --links --variables --depth 2 "
                                 "--arity 4 --seed 3 -o " + Quote(Mixed()));
    ASSERT_EQ(g.exit_code, 0) << g.err;
  }
  static void TearDownTestSuite() { delete dir_; }
  static std::string Mixed() { return dir_->path() + "/mixed.trace"; }
  static std::string Path(const std::string& name) { return dir_->path() + "/" + name; }
  // The lines of the mixed trace.
  static std::vector<std::string> Lines() {
    std::vector<std::string> lines;
    std::istringstream in(ReadText(Mixed()));
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
  }
  static void Write(const std::string& path, const std::vector<std::string>& lines) {
    std::string text;
    for (const auto& l : lines) text += l + "\n";
    WriteText(path, text);
  }
  static TempDir* dir_;
};
TempDir* GeneratedTraceTest::dir_ = nullptr;

TEST_F(GeneratedTraceTest, ManyChunksAsSequential) {
  CommandResult one = Dump(Quote(Mixed()), "1");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  for (const char* chunk : {"65536", "4096", "777"}) {
    for (const char* threads : {"2", "4"}) {
      CommandResult many = Dump(Quote(Mixed()), threads, chunk);
      ASSERT_EQ(many.exit_code, 0) << many.err;
      EXPECT_TRUE(many.out == one.out) << threads << " threads, chunks of " << chunk << ": the dumps differ";
    }
  }
}

TEST_F(GeneratedTraceTest, StandardInputAsSequential) {
  CommandResult one = Dump(Quote(Mixed()), "1");
  CommandResult many = RunCommand("cat " + Quote(Mixed()) + " | " + Quote(MACROSCOPE_BINARY) +
                                  " dump --threads 2 --chunk-bytes 5000 -");
  ASSERT_EQ(many.exit_code, 0) << many.err;
  EXPECT_TRUE(many.out == one.out);
}

// A definition after event lines: the workers stop at it and the decoder
// reads on from there, the lines after it using the new event id.
TEST_F(GeneratedTraceTest, DefinitionAmongEventLines) {
  std::vector<std::string> lines = Lines();
  // The id of PajeNewEvent in the header, defined again as "late".
  std::string id;
  size_t header_end = 0;
  for (size_t i = 0; i < lines.size() && lines[i].starts_with("%"); ++i) {
    if (lines[i].starts_with("%EventDef PajeNewEvent ")) id = lines[i].substr(23);
    header_end = i + 1;
  }
  ASSERT_FALSE(id.empty());
  const size_t middle = header_end + (lines.size() - header_end) / 2;
  int renamed = 0;
  for (size_t i = middle; i < lines.size(); ++i) {
    if (!lines[i].starts_with(id + " ")) continue;
    lines[i] = "late" + lines[i].substr(id.size());
    ++renamed;
  }
  ASSERT_GT(renamed, 10);
  // Its fields in the header's order, through a comment and a blank line.
  std::vector<std::string> definition = {"%EventDef PajeNewEvent late"};
  for (size_t i = 0; i < header_end; ++i) {
    if (lines[i] != "%EventDef PajeNewEvent " + id) continue;
    for (size_t j = i + 1; lines[j] != "%EndEventDef"; ++j) definition.push_back(lines[j]);
    definition.insert(definition.begin() + 2, "# a comment inside");
    definition.insert(definition.begin() + 3, "");
    definition.push_back("%EndEventDef");
  }
  lines.insert(lines.begin() + static_cast<long>(middle), definition.begin(), definition.end());
  Write(Path("late_definition.trace"), lines);
  ExpectSameAsSequential(Path("late_definition.trace"));
}

// An error far into the file, in a late chunk, and an earlier one: the
// first in input order is the one reported.
TEST_F(GeneratedTraceTest, ErrorInALateChunk) {
  std::vector<std::string> lines = Lines();
  const size_t late = lines.size() - 100;
  lines[late] = "999 1 x y z";
  Write(Path("late_error.trace"), lines);
  CommandResult one = Dump(Quote(Path("late_error.trace")), "1");
  EXPECT_EQ(one.exit_code, 1);
  EXPECT_NE(one.err.find("late_error.trace:" + std::to_string(late + 1) + ": event id '999' has no definition"),
            std::string::npos)
      << one.err;
  for (const char* chunk : {"65536", "100"}) {
    CommandResult many = Dump(Quote(Path("late_error.trace")), "2", chunk);
    EXPECT_EQ(many.exit_code, 1);
    EXPECT_EQ(many.err, one.err);
    EXPECT_EQ(many.out, "");
  }
  const size_t early = lines.size() / 2;
  lines[early] = lines[early] + " one_field_too_many";
  Write(Path("two_errors.trace"), lines);
  one = Dump(Quote(Path("two_errors.trace")), "1");
  EXPECT_NE(one.err.find("two_errors.trace:" + std::to_string(early + 1) + ": "), std::string::npos) << one.err;
  EXPECT_EQ(Dump(Quote(Path("two_errors.trace")), "2", "65536").err, one.err);
}

}  // namespace
}  // namespace macroscope::testing
