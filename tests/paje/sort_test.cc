// `--sort`: Pajé traces whose lines are not in time order (StarPU's
// paje.trace), read as StarVZ's sort orders them. The peer is pj_dump on
// the file sorted by GNU sort with StarVZ's key; the external path (runs in
// temporary files) is forced with a tiny --sort-memory.
#include <algorithm>
#include <filesystem>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "formats/paje/line_sort.h"
#include "test_support.h"

namespace macroscope::testing {
namespace {

bool IsFront(const std::string& line) {  // the generator's definitions and creations (ids 0..6)
  return line.empty() || line[0] == '%' || (line.size() > 1 && line[0] >= '0' && line[0] <= '6' && line[1] == ' ');
}

// The lines of `text` as StarPU's per-worker buffers write them: each timed
// line goes to one of `workers` buffers, and a buffer is written out whole
// when it holds `window` lines, so lines move by at most a few windows.
std::string Shuffle(const std::string& text, int workers, size_t window, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<std::string>> buffers(workers);
  std::string out;
  std::istringstream in(text);
  size_t timed = 0;
  for (std::string line; std::getline(in, line);) {
    if (IsFront(line)) {
      out += line + "\n";
      continue;
    }
    if (++timed == 5000) out += "# a comment line, and a value defined late\n\n5 late S \"late value\" \"1 0 0\"\n";
    auto& buffer = buffers[rng() % workers];
    buffer.push_back(line);
    if (buffer.size() < window) continue;
    for (auto& l : buffer) out += l + "\n";
    buffer.clear();
  }
  for (auto& buffer : buffers)
    for (auto& l : buffer) out += l + "\n";
  return out;
}

class SortTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    const std::string ordered = dir_->path() + "/ordered.trace";
    CommandResult g = Macroscope("generate --events 20000 --nested --punctual --links --variables --depth 2 "
                                 "--arity 6 --seed 7 -o " + Quote(ordered));
    ASSERT_EQ(g.exit_code, 0) << g.err;
    WriteText(Shuffled(), Shuffle(ReadText(ordered), 8, 64, 11));
    // Without pushed states, the first complaint of an unsorted read is
    // about time order (with them, a pop may come before its push).
    const std::string flat = dir_->path() + "/flat.trace";
    g = Macroscope("generate --events 2000 --punctual --variables --depth 2 --arity 6 --seed 7 -o " + Quote(flat));
    ASSERT_EQ(g.exit_code, 0) << g.err;
    WriteText(ShuffledFlat(), Shuffle(ReadText(flat), 8, 64, 11));
  }
  static void TearDownTestSuite() { delete dir_; }
  static std::string Shuffled() { return dir_->path() + "/shuffled.trace"; }
  static std::string ShuffledFlat() { return dir_->path() + "/shuffled-flat.trace"; }

  // pj_dump on the file sorted as StarVZ's paje_sort.sh does: definitions
  // and creations in file order, then the rest by a stable version sort on
  // the second field (the time).
  static std::string Peer(const std::string& trace) {
    const std::string sorted = dir_->path() + "/peer.trace";
    const std::string front = "'^(%|[0-6][[:space:]])'";
    CommandResult s = RunCommand("{ LC_ALL=C grep -E " + front + " " + Quote(trace) + "; LC_ALL=C grep -vE " + front +
                                 " " + Quote(trace) + " | LC_ALL=C sort -s -V -k2,2; }");
    EXPECT_EQ(s.exit_code, 0) << s.err;
    WriteText(sorted, s.out);
    CommandResult p = RunCommand("pj_dump " + Quote(sorted));
    EXPECT_EQ(p.exit_code, 0) << p.err;
    EXPECT_EQ(p.out.find("Exception"), std::string::npos) << p.out.substr(0, 300);
    return p.out;
  }

  static TempDir* dir_;
};
TempDir* SortTest::dir_ = nullptr;

// Runs `macroscope ARGS` with TMPDIR set to `tmp`.
CommandResult InTmp(const TempDir& tmp, const std::string& args) {
  return RunCommand("TMPDIR=" + Quote(tmp.path()) + " " + Quote(MACROSCOPE_BINARY) + " " + args);
}

bool Empty(const TempDir& tmp) { return std::filesystem::is_empty(tmp.path()); }

TEST_F(SortTest, WithoutSortTheErrorSuggestsIt) {
  CommandResult r = Macroscope("dump " + Quote(ShuffledFlat()));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.out.empty());
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("macroscope: " + ShuffledFlat() + ":", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("time goes backwards"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("(read it with --sort)"), std::string::npos) << r.err;
  CommandResult sorted = Macroscope("dump --sort " + Quote(ShuffledFlat()));
  ASSERT_EQ(sorted.exit_code, 0) << sorted.err;
  EXPECT_EQ(SortedLines(sorted.out), SortedLines(Peer(ShuffledFlat())));
}

TEST_F(SortTest, InMemoryEqualsPjDumpOnTheSortedFile) {
  TempDir tmp;
  CommandResult r = InTmp(tmp, "dump --sort " + Quote(Shuffled()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(SortedLines(r.out), SortedLines(Peer(Shuffled())));
  EXPECT_TRUE(Empty(tmp));
}

TEST_F(SortTest, ExternalEqualsPjDumpOnTheSortedFile) {
  TempDir tmp;
  CommandResult r = InTmp(tmp, "dump --sort --sort-memory 16384 " + Quote(Shuffled()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(SortedLines(r.out), SortedLines(Peer(Shuffled())));
  EXPECT_TRUE(Empty(tmp));  // every run removed
}

TEST_F(SortTest, SortedInputIsUnchanged) {
  const std::string ordered = dir_->path() + "/ordered.trace";
  CommandResult plain = Macroscope("dump " + Quote(ordered));
  CommandResult sorted = Macroscope("dump --sort --sort-memory 16384 " + Quote(ordered));
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  ASSERT_EQ(sorted.exit_code, 0) << sorted.err;
  EXPECT_EQ(SortedLines(sorted.out), SortedLines(plain.out));
}

TEST_F(SortTest, ErrorsNameTheLineInTheFileAndLeaveNoTemporaryFile) {
  const std::string bad = dir_->path() + "/bad.trace";
  std::string text = ReadText(Shuffled());
  const size_t bad_line = static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  WriteText(bad, text + "10 3 no.such.container S v1\n");
  TempDir tmp;
  CommandResult r = InTmp(tmp, "dump --sort --sort-memory 16384 " + Quote(bad));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.out.empty());
  EXPECT_EQ(r.err.rfind("macroscope: " + bad + ":" + std::to_string(bad_line) + ": ", 0), 0u) << r.err;
  EXPECT_TRUE(Empty(tmp));
}

TEST_F(SortTest, AnUnusableTemporaryFolderIsAUserError) {
  TempDir tmp;
  CommandResult r = RunCommand("TMPDIR=" + Quote(tmp.path() + "/missing") + " " + Quote(MACROSCOPE_BINARY) +
                 " dump --sort --sort-memory 16384 " + Quote(Shuffled()));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(tmp.path() + "/missing: cannot create a temporary file"), std::string::npos) << r.err;
}

// The sorter alone: a stable sort by (front, time) whatever the budget.
TEST(LineSort, StableByFrontThenTimeInMemoryAndInRuns) {
  std::mt19937_64 rng(3);
  std::string text;
  struct Line {
    bool front;
    double time;
    uint64_t number;
    size_t offset, length;
  };
  std::vector<Line> lines;
  for (uint64_t n = 1; n <= 5000; ++n) {
    std::string t = "line " + std::to_string(n);
    lines.push_back({rng() % 10 == 0, static_cast<double>(rng() % 50), n, text.size(), t.size()});
    text += t + "\n";
  }
  std::vector<Line> expected = lines;
  std::stable_sort(expected.begin(), expected.end(), [](const Line& a, const Line& b) {
    return a.front != b.front ? a.front : a.time < b.time;
  });
  for (size_t memory : {paje::kSortMemory, size_t{2048}}) {
    TempDir tmp;
    setenv("TMPDIR", tmp.path().c_str(), 1);
    paje::LineSort sort(text, nullptr, memory);
    for (const Line& l : lines) sort.Add(std::string_view(text).substr(l.offset, l.length), l.number, l.front, l.time);
    EXPECT_EQ(sort.runs() > 1, memory == 2048);
    std::string_view got;
    uint64_t number = 0;
    for (const Line& l : expected) {
      ASSERT_TRUE(sort.Next(got, number));
      EXPECT_EQ(number, l.number);
      EXPECT_EQ(got, "line " + std::to_string(l.number));
    }
    EXPECT_FALSE(sort.Next(got, number));
    EXPECT_TRUE(Empty(tmp));  // runs are unlinked as soon as made
    unsetenv("TMPDIR");
  }
}

}  // namespace
}  // namespace macroscope::testing
