// The store (`macroscope import`): round trips through the binary, and one
// test per class of bad input.
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace {

namespace fs = std::filesystem;

struct Result {
  int exit_code = -1;
  std::string output;
};

Result Shell(const std::string& command) {
  Result r;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return r;
  char buffer[65536];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) r.output.append(buffer, n);
  int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string M() { return std::string("'") + MACROSCOPE_BINARY + "'"; }

std::multiset<std::string> Lines(const std::string& text) {
  std::multiset<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.insert(line);
  return lines;
}

// info --json without the "files" entry (the names differ by design).
std::string InfoWithoutFiles(const std::string& path) {
  Result r = Shell(M() + " info --json '" + path + "'");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  std::string out;
  std::istringstream in(r.output);
  bool in_files = false;
  for (std::string line; std::getline(in, line);) {
    if (line.find("\"files\"") != std::string::npos) { in_files = line.find(']') == std::string::npos; continue; }
    if (in_files) { in_files = line.find(']') == std::string::npos; continue; }
    out += line + "\n";
  }
  return out;
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}
void WriteAll(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "store_" + ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Generated() {
    std::string trace = dir_ + "/g.trace";
    Result r = Shell(M() + " generate --events 20000 --nested --punctual --links --variables -o '" + trace + "'");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return trace;
  }
  std::string Import(const std::string& trace, const std::string& store) {
    Result r = Shell(M() + " import '" + trace + "' -o '" + store + "'");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return store;
  }
  void ExpectSameTrace(const std::string& trace, const std::string& store) {
    Result a = Shell(M() + " dump -u '" + trace + "'");
    Result b = Shell(M() + " dump -u '" + store + "'");
    ASSERT_EQ(a.exit_code, 0) << a.output;
    ASSERT_EQ(b.exit_code, 0) << b.output;
    EXPECT_FALSE(a.output.empty());
    EXPECT_TRUE(Lines(a.output) == Lines(b.output)) << trace;
    EXPECT_EQ(a.output, b.output) << "same lines, same order: " << trace;
    EXPECT_EQ(InfoWithoutFiles(trace), InfoWithoutFiles(store)) << trace;
  }
  std::string dir_;
};

TEST_F(StoreTest, GeneratedTraceRoundTrips) {
  std::string trace = Generated();
  ExpectSameTrace(trace, Import(trace, dir_ + "/g.mstore"));
}

TEST_F(StoreTest, DefaultOutputIsBesideTheTrace) {
  std::string trace = Generated();
  Result r = Shell(M() + " import '" + trace + "'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(fs::exists(trace + ".mstore"));
  ExpectSameTrace(trace, trace + ".mstore");
}

TEST_F(StoreTest, StoreIsSmallerThanTheText) {
  std::string trace = Generated();
  std::string store = Import(trace, dir_ + "/g.mstore");
  EXPECT_LE(static_cast<double>(fs::file_size(store)), 0.3 * static_cast<double>(fs::file_size(trace)));
}

TEST_F(StoreTest, PajengExamplesRoundTrip) {
  const std::string examples = "/usr/share/doc/pajeng/examples/traces/";
  if (!fs::exists(examples + "native_sample.trace")) GTEST_SKIP() << "pajeng examples not installed";
  // native_sample.trace carries user fields; the others cover every kind.
  for (const char* name : {"native_sample.trace", "g5k.trace", "links.trace", "variables.trace", "events.trace",
                           "simu-mardi.trace", "categories.trace"}) {
    std::string trace = examples + name;
    ExpectSameTrace(trace, Import(trace, dir_ + "/" + name + ".mstore"));
  }
}

// Stores larger than a chunk (65536 entities), imported streamed (the
// reader hands its entities to the store writer out of store order: a
// state still open comes later), with parallel decoding, with sharded
// simulation, and with a writer allowed a few thousand pending entities
// (it sets them aside on disk and merges them into full chunks at the
// end): the store gives back the trace's order, and the merged store is
// as compact as the one written without the bound (the same chunks).
TEST_F(StoreTest, StoresLargerThanAChunkRoundTrip) {
  std::string trace = dir_ + "/long.trace";
  Result g = Shell(M() + " generate --depth 1 --arity 2 --events 400000 --nested --nesting 3 --punctual --links" +
                   " --variables --inner -o '" + trace + "'");
  ASSERT_EQ(g.exit_code, 0) << g.output;
  std::vector<uintmax_t> sizes;
  for (const char* options : {"", "--threads 2", "--shards 2", "--max-pending 3000"}) {
    const std::string store = dir_ + "/long.mstore";
    Result r = Shell(M() + " import " + options + " '" + trace + "' -o '" + store + "'");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    ExpectSameTrace(trace, store);
    sizes.push_back(fs::file_size(store));
  }
  EXPECT_NEAR(static_cast<double>(sizes.back()), static_cast<double>(sizes.front()), 0.03 * sizes.front());
}

// A trace piped to `import -` is copied to a temporary file as it comes
// (disk, not memory) and read from there: the same store; without room
// for that copy, one line saying where and why, exit 1, nothing written.
TEST_F(StoreTest, StandardInputIsReadThroughATemporaryFile) {
  const std::string trace = Generated();
  const std::string store = dir_ + "/piped.mstore";
  Result r = Shell("cat '" + trace + "' | " + M() + " import - -o '" + store + "'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  ExpectSameTrace(trace, store);
  const std::string missing = dir_ + "/no-such-folder";
  r = Shell("cat '" + trace + "' | TMPDIR='" + missing + "' " + M() + " import - -o '" + dir_ + "/x.mstore'");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("standard input: cannot create a temporary file in " + missing), std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(dir_ + "/x.mstore"));
}

// Every seed draws other times, values and nestings.
TEST_F(StoreTest, RandomTracesRoundTrip) {
  for (int seed : {2, 3, 4}) {
    std::string trace = dir_ + "/r.trace";
    Result g = Shell(M() + " generate --depth 2 --arity 4 --values 50 --events 30000 --nested --nesting 2" +
                     " --punctual --links --variables --inner --seed " + std::to_string(seed) + " -o '" + trace + "'");
    ASSERT_EQ(g.exit_code, 0) << g.output;
    ExpectSameTrace(trace, Import(trace, dir_ + "/r.mstore"));
  }
}

// Stores written by earlier releases from the traces beside them still
// open, and give the same trace.
TEST_F(StoreTest, OlderStoresStillOpen) {
  const std::string data = std::string(MACROSCOPE_SOURCE_DIR) + "/tests/store/data/";
  // Format 2, and format 3 as written before level-of-detail summaries
  // (section 8), and with summaries before they were cut in blocks.
  for (const char* name : {"gen", "fields"}) {
    ExpectSameTrace(data + name + ".trace", data + name + ".v2.mstore");
    ExpectSameTrace(data + name + ".trace", data + name + ".v3.mstore");
  }
  ExpectSameTrace(data + "lod.trace", data + "lod.v3s.mstore");
}

// A flipped byte inside the first frame of chunks: the error names the
// file and the chunk.
TEST_F(StoreTest, CorruptChunkIsNamed) {
  std::string store = Import(Generated(), dir_ + "/g.mstore");
  std::string bytes = ReadAll(store);
  bytes[20] = static_cast<char>(bytes[20] ^ 0x10);  // past the 16-byte header: the first frame
  WriteAll(store, bytes);
  Result r = Shell(M() + " dump '" + store + "'");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find(store + ": checksum mismatch in chunk "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("in container '"), std::string::npos) << r.output;
}

// `stats` of a chunked store reads only the chunks whose time range meets
// the window: the same rows as the trace's, for windows at the edges, in
// the middle, narrower than a state, with containers, and the whole trace.
TEST_F(StoreTest, StatsOfAWindowAreTheTraces) {
  std::string trace = Generated();
  std::string store = Import(trace, dir_ + "/g.mstore");
  for (const char* window : {"", "--start +0s --end +1s", "--start +150s --end +151.5s", "--start +300s",
                             "--start +10s --end +200s --containers c1 c3.2", "--start +100.25s --end +100.5s"}) {
    Result a = Shell(M() + " stats --format json " + window + " '" + trace + "'");
    Result b = Shell(M() + " stats --format json " + window + " '" + store + "'");
    ASSERT_EQ(a.exit_code, 0) << a.output;
    EXPECT_EQ(a.output, b.output) << window;
  }
}

TEST_F(StoreTest, FlippedByteIsAChecksumError) {
  std::string store = Import(Generated(), dir_ + "/g.mstore");
  std::string bytes = ReadAll(store);
  // One byte inside the sections, then one in the directory.
  for (size_t at : {bytes.size() / 2, bytes.size() - 40}) {
    std::string bad = bytes;
    bad[at] = static_cast<char>(bad[at] ^ 0x10);
    WriteAll(store, bad);
    Result r = Shell(M() + " dump '" + store + "'");
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find(store), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("checksum"), std::string::npos) << r.output;
  }
}

TEST_F(StoreTest, TruncatedStoreIsRefused) {
  std::string store = Import(Generated(), dir_ + "/g.mstore");
  std::string bytes = ReadAll(store);
  for (size_t size : {bytes.size() - 1, bytes.size() / 2, size_t{20}, size_t{10}}) {
    WriteAll(store, bytes.substr(0, size));
    Result r = Shell(M() + " info '" + store + "'");
    EXPECT_EQ(r.exit_code, 1) << size << ": " << r.output;
    EXPECT_NE(r.output.find(store), std::string::npos) << r.output;
  }
}

TEST_F(StoreTest, NewerVersionIsRefused) {
  std::string store = Import(Generated(), dir_ + "/g.mstore");
  std::string bytes = ReadAll(store);
  bytes[8] = static_cast<char>(bytes[8] + 1);  // the version, little-endian u32 after the magic
  WriteAll(store, bytes);
  Result r = Shell(M() + " dump '" + store + "'");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("made by a newer macroscope (format version 4 > 3)"), std::string::npos) << r.output;
}

TEST_F(StoreTest, FailedImportLeavesNothing) {
  std::string trace = dir_ + "/bad.trace";
  WriteAll(trace, "%EventDef PajeDefineContainerType 1\n% Alias string\n%EndEventDef\n1 A 0\n2 oops\n");
  std::string store = dir_ + "/bad.mstore";
  Result r = Shell(M() + " import '" + trace + "' -o '" + store + "'");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  for (auto& entry : fs::directory_iterator(dir_))
    EXPECT_EQ(entry.path().filename().string(), "bad.trace") << "left behind: " << entry.path();
}

TEST_F(StoreTest, FormatsListsTheStore) {
  Result r = Shell(M() + " formats");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.output.find("store"), std::string::npos) << r.output;
}

}  // namespace
