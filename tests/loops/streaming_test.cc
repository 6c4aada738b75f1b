// Streamed input: the tokenizer fed in pieces, the bottom-up recogniser
// fed in pieces across chunks of any size, and --verify against the file read
// again, all equal to the whole-trace paths.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "loops/bottom_up.h"
#include "loops/find_model.h"
#include "loops/trace_text.h"
#include "loops/verify.h"
#include "run_command.h"
#include "util/error.h"

namespace macroscope::loops {
namespace {

std::vector<int64_t> TokenizeInPieces(const std::string& text, size_t piece) {
  std::vector<int64_t> values;
  TraceTokenizer tokenizer("t.txt");
  for (size_t at = 0; at < text.size(); at += piece) {
    tokenizer.Feed(std::string_view(text).substr(at, piece), at + piece >= text.size(), values);
  }
  return values;
}

TEST(TraceTokenizer, PiecesOfAnySizeGiveTheWholeParse) {
  const std::string text = "12 -7\t+3\n\n 9223372036854775807 -9223372036854775808\r\n42";
  const std::vector<int64_t> whole = ParseTrace(text, "t.txt");
  for (size_t piece : {1, 2, 3, 5, 8, 64}) EXPECT_EQ(TokenizeInPieces(text, piece), whole) << piece;
}

TEST(TraceTokenizer, ErrorPositionsAreThoseOfTheWholeText) {
  const std::string text = "1 2 3\n4 5x 6\n";
  for (size_t piece : {1, 4, 100}) {
    try {
      TokenizeInPieces(text, piece);
      FAIL() << "no error";
    } catch (const UserError& e) {
      EXPECT_STREQ(e.what(), "t.txt:2:3: not an integer '5x'") << piece;
    }
  }
}

TEST(TraceReader, TokensAcrossBlocksAndEmptyFiles) {
  const std::string dir = testing::ScratchDir("reader");
  // 300,000 values of 7 characters: tokens straddle the 1 MiB blocks.
  std::vector<int64_t> values;
  for (int64_t i = 0; i < 300000; ++i) values.push_back(1000000 + i * 3);
  testing::WriteText(dir + "/t.txt", testing::Join(values, " "));
  TraceReader reader(dir + "/t.txt", "t.txt");
  std::vector<int64_t> read;
  while (reader.Read(read, 77777) > 0) {
  }
  EXPECT_EQ(read, values);
  testing::WriteText(dir + "/empty.txt", " \n\t\n");
  TraceReader empty(dir + "/empty.txt", "empty.txt");
  std::vector<int64_t> none;
  try {
    empty.Read(none, 10);
    FAIL() << "no error";
  } catch (const UserError& e) {
    EXPECT_STREQ(e.what(), "empty.txt:1:1: empty trace (no integers)");
  }
  EXPECT_THROW(TraceReader(dir + "/missing.txt", "missing.txt"), UserError);
  testing::RunCommand("rm -rf '" + dir + "'");
}

// A 3-deep triangular nest of two references, longer than the recogniser's
// chunk of 2^20 values, with a linear run longer than a chunk at the end.
std::vector<int64_t> LongTrace() {
  std::vector<int64_t> trace;
  for (int64_t i = 0; i < 60; ++i)
    for (int64_t j = 0; j < 200; ++j)
      for (int64_t k = 0; k < j % 7 + i + 3; ++k) {
        trace.push_back(0x10000000 + 8 * (i * 4096 + k * 64 + j));
        trace.push_back(0x20000000 + 8 * (k * 200 + j));
      }
  for (int64_t t = 0; t < 1500000; ++t) trace.push_back(7 + 5 * t);
  return trace;
}

TEST(BottomUpBuilder, PiecesAcrossChunksGiveTheWholeModel) {
  const std::vector<int64_t> trace = LongTrace();
  ASSERT_GT(trace.size(), size_t{2} << 20);  // three chunks at least
  const std::vector<uint64_t> data(trace.begin(), trace.end());
  Options options;
  const std::vector<Node> whole = BottomUpPhases(data.data(), static_cast<int64_t>(data.size()), options);
  std::mt19937_64 rng(7);
  // Small chunks: many more boundaries, and runs longer than a chunk.
  BottomUpBuilder builder(options, 1000);
  for (size_t at = 0; at < data.size();) {
    const size_t piece = std::min(data.size() - at, static_cast<size_t>(rng() % 300000 + 1));
    builder.Add(std::span<const uint64_t>(data.data() + at, piece));
    at += piece;
  }
  Model streamed;
  streamed.length = static_cast<int64_t>(trace.size());
  streamed.phases = builder.Finish();
  Model in_memory;
  in_memory.length = streamed.length;
  in_memory.phases = whole;
  EXPECT_EQ(ModelSize(streamed), ModelSize(in_memory));
  EXPECT_EQ(streamed.phases.size(), in_memory.phases.size());
  EXPECT_FALSE(FirstDifference(trace, streamed).has_value());
  // The linear tail, longer than a chunk, is one loop.
  EXPECT_EQ(streamed.phases.back().count, 1500000);
}

TEST(StreamedFile, ModelAndVerifyAgainstTheFileReadAgain) {
  const std::string dir = testing::ScratchDir("streamed");
  const std::vector<int64_t> trace = LongTrace();
  testing::WriteText(dir + "/t.txt", testing::Join(trace));
  Choice chosen;
  TraceReader reader(dir + "/t.txt", "t.txt");
  const Model model = FindModel(reader, Options{}, &chosen);
  EXPECT_EQ(chosen.algorithm, Algorithm::kBottomUp);
  EXPECT_EQ(model.length, static_cast<int64_t>(trace.size()));
  TraceReader again(dir + "/t.txt", "t.txt");
  EXPECT_FALSE(FirstDifference(again, model).has_value());

  // A file that differs late, and files shorter and longer than the model.
  std::vector<int64_t> changed = trace;
  changed[changed.size() - 10] += 1;
  testing::WriteText(dir + "/changed.txt", testing::Join(changed));
  TraceReader changed_reader(dir + "/changed.txt", "changed.txt");
  const auto d = FirstDifference(changed_reader, model);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->index, static_cast<int64_t>(trace.size()) - 10);
  EXPECT_EQ(d->expected, changed[changed.size() - 10]);
  for (int64_t delta : {-3, 5}) {
    std::vector<int64_t> other = trace;
    if (delta < 0) other.resize(other.size() - 3);
    else other.insert(other.end(), 5, 1);
    testing::WriteText(dir + "/other.txt", testing::Join(other));
    TraceReader other_reader(dir + "/other.txt", "other.txt");
    const auto m = FirstDifference(other_reader, model);
    ASSERT_TRUE(m.has_value()) << delta;
    EXPECT_TRUE(m->length_mismatch);
    EXPECT_EQ(m->expected_length, static_cast<int64_t>(other.size()));
    EXPECT_EQ(m->got_length, static_cast<int64_t>(trace.size()));
  }

  const auto cli = testing::RunCommand(testing::Macroscope() + " loops " + dir + "/t.txt --verify --timings");
  EXPECT_EQ(cli.exit_code, 0) << cli.output;
  EXPECT_NE(cli.output.find("verify: ok, " + std::to_string(trace.size()) + " values regenerated exactly"),
            std::string::npos)
      << cli.output;
  testing::RunCommand("rm -rf '" + dir + "'");
}

}  // namespace
}  // namespace macroscope::loops
