// The window answered from level-of-detail summaries (model/lod_summary.h)
// is the window answered from the entities, byte for byte: on generated
// traces of every entity kind, with random windows at every zoom, the
// summaries built in memory as deep as a store allows, deeper and
// shallower, and the summaries `import` wrote into a store; the
// statistics of those windows too, and the overview's model over bins
// (every metric, random ranges and slices); a corrupt summary is an error
// naming the store.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "analysis/state_statistics.h"
#include "analysis/trace_model.h"
#include "formats/format.h"
#include "model/entity_source.h"
#include "model/lod_summary.h"
#include "serve_process.h"
#include "server/window.h"
#include "store/store_source.h"
#include "store/summary_codec.h"
#include "test_support.h"
#include "util/error.h"

namespace macroscope::server::testing {
namespace {

// The trace in memory, with a summary of every store down to `finest`
// levels below what LodFinestLevel chooses (negative: coarser).
class SummarisedSource : public TraceSource {
 public:
  SummarisedSource(const Trace& trace, int deeper) : TraceSource(trace) {
    const TimeBins bins(trace.start_time(), trace.end_time());
    for (uint32_t k = 0; k < trace.stores().size(); ++k) {
      const EntityStore& s = trace.stores()[k];
      double first = 0, last = 0;
      for (size_t i = 0; i < s.size(); ++i) {
        const double a = std::min(s.start[i], s.End(i)), b = std::max(s.start[i], s.End(i));
        first = i == 0 ? a : std::min(first, a);
        last = i == 0 ? b : std::max(last, b);
      }
      const int chosen = LodFinestLevel(bins, s.size(), first, last);
      if (chosen < 0) {
        summaries_.push_back(nullptr);
        continue;
      }
      LodSummaryBuilder builder(bins, s.kind, std::max(0, chosen + deeper));
      ForEachChunk(k, [&](const EntityChunk& chunk) {
        EntityChunk c = chunk;
        c.store = k;
        builder.Add(c);
      });
      summaries_.push_back(std::make_shared<const LodSummary>(builder.Finish()));
    }
  }
  int summary_finest(uint32_t k) const override { return summaries_[k] ? summaries_[k]->finest() : -1; }
  std::shared_ptr<const LodSummary> summary(uint32_t k, int level, uint64_t, uint64_t) const override {
    if (level > summary_finest(k)) return nullptr;
    ++read_;
    return summaries_[k];
  }
  // How many times a summary was read.
  size_t read() const { return read_; }
  size_t summarised() const {
    size_t n = 0;
    for (const auto& s : summaries_) n += s != nullptr;
    return n;
  }

 private:
  std::vector<std::shared_ptr<const LodSummary>> summaries_;
  mutable std::atomic<size_t> read_{0};
};

// Random windows: zooms from wider than the trace to a millionth of it,
// some on the trace's edges, some for one type.
std::vector<WindowRequest> RandomWindows(const Trace& trace, int n) {
  const double t0 = trace.start_time(), span = trace.end_time() - trace.start_time();
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<WindowRequest> windows;
  for (int k = 0; k < n; ++k) {
    WindowRequest request;
    // Half of them over a quarter of the trace or more: what summaries
    // answer.
    const double width = span * std::pow(10.0, (k % 2 == 0 ? -0.6 : -6) * unit(random)) * (k % 10 == 0 ? 3 : 1);
    const double start = k % 7 == 0 ? t0 : t0 - 0.1 * width + unit(random) * (span - 0.8 * width);
    request.start = start;
    request.end = start + width;
    request.width = std::vector<int>{1, 17, 300, 1600}[k % 4];
    if (k % 5 == 1) request.types = {trace.stores()[k % trace.stores().size()].type};
    windows.push_back(request);
  }
  return windows;
}

void ExpectSameWindows(const EntitySource& expected, const EntitySource& source, const std::vector<WindowRequest>& windows) {
  for (size_t k = 0; k < windows.size(); ++k) {
    SCOPED_TRACE("window " + std::to_string(k));
    const std::string want = WindowJson(expected, windows[k]);
    const std::string answer = WindowJson(source, windows[k]);
    ASSERT_EQ(answer.size(), want.size());
    ASSERT_TRUE(answer == want);
  }
}

// The statistics of each window: every row's count and exact time.
void ExpectSameStatistics(const EntitySource& expected, const EntitySource& source,
                          const std::vector<WindowRequest>& windows) {
  for (size_t k = 0; k < windows.size(); ++k) {
    SCOPED_TRACE("statistics of window " + std::to_string(k));
    analysis::StatisticsRequest request;
    request.start = windows[k].start;
    request.end = windows[k].end;
    const analysis::Statistics want = analysis::ComputeStatistics(expected, request);
    const analysis::Statistics got = analysis::ComputeStatistics(source, request);
    ASSERT_EQ(got.rows.size(), want.rows.size());
    for (size_t r = 0; r < want.rows.size(); ++r) {
      EXPECT_EQ(got.rows[r].kind + " " + got.rows[r].type + " " + got.rows[r].value,
                want.rows[r].kind + " " + want.rows[r].type + " " + want.rows[r].value);
      EXPECT_EQ(got.rows[r].count, want.rows[r].count);
      EXPECT_EQ(got.rows[r].total_time, want.rows[r].total_time);
    }
  }
}

// Random overviews over bins: every metric, the whole trace and random
// ranges down to a thousandth of it, from 1 to 300 slices.
std::vector<analysis::ModelRequest> RandomModels(const Trace& trace, int n) {
  const double t0 = trace.start_time(), span = trace.end_time() - trace.start_time();
  std::mt19937_64 random(8);
  std::uniform_real_distribution<double> unit(0, 1);
  const std::vector<std::string> metrics = analysis::MetricNames();
  std::vector<analysis::ModelRequest> requests;
  for (int k = 0; k < n; ++k) {
    analysis::ModelRequest request;
    request.bins = true;
    request.metric = *analysis::MetricFromName(metrics[k % metrics.size()]);
    request.slices = std::vector<int32_t>{1, 7, 100, 300}[k % 4];
    if (k % 3 != 0) {
      const double width = span * std::pow(10.0, -3 * unit(random));
      request.start = t0 + unit(random) * (span - width);
      request.end = *request.start + width;
    }
    requests.push_back(request);
  }
  return requests;
}

void ExpectSameModels(const EntitySource& expected, const EntitySource& source,
                      const std::vector<analysis::ModelRequest>& requests) {
  for (size_t k = 0; k < requests.size(); ++k) {
    SCOPED_TRACE("model " + std::to_string(k));
    const analysis::MicroModel want = analysis::BuildModel(expected, requests[k]);
    const analysis::MicroModel got = analysis::BuildModel(source, requests[k]);
    ASSERT_EQ(got.types(), want.types());
    ASSERT_EQ(got.leaf_count(), want.leaf_count());
    ASSERT_EQ(got.slices(), want.slices());
    ASSERT_EQ(got.range()->begin, want.range()->begin);
    ASSERT_EQ(got.range()->end, want.range()->end);
    for (int32_t leaf = 0; leaf < want.leaf_count(); ++leaf) {
      for (int32_t type = 0; type < want.type_count(); ++type) {
        const auto a = got.Series(leaf, type), b = want.Series(leaf, type);
        ASSERT_EQ(std::vector<double>(a.begin(), a.end()), std::vector<double>(b.begin(), b.end()))
            << "leaf " << leaf << ", type " << want.types()[type];
      }
    }
  }
}

class WindowSummaryTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    file_ = dir_.path() + "/generated.trace";
    RunMacroscope("generate " + GetParam() + " -o '" + file_ + "'");
    formats::ReadTrace({file_}, {}, trace_);
    trace_.BuildIndexes();
  }
  macroscope::testing::TempDir dir_;
  std::string file_;
  Trace trace_;
};

TEST_P(WindowSummaryTest, SameAnswersAsTheEntities) {
  const TraceSource plain(trace_);
  const std::vector<WindowRequest> windows = RandomWindows(trace_, 60);
  for (int deeper : {0, 3, -2}) {
    SCOPED_TRACE("deeper " + std::to_string(deeper));
    const SummarisedSource summarised(trace_, deeper);
    ASSERT_GT(summarised.summarised(), 0u);
    ExpectSameWindows(plain, summarised, windows);
    ExpectSameStatistics(plain, summarised, windows);
    const size_t read = summarised.read();
    ExpectSameModels(plain, summarised, RandomModels(trace_, 40));
    EXPECT_GT(summarised.read(), read);  // the models read summaries
  }
}

TEST_P(WindowSummaryTest, StoredSummariesGiveTheSameAnswers) {
  const std::string store = dir_.path() + "/generated.mstore";
  RunMacroscope("import '" + file_ + "' -o '" + store + "'");
  const store::StoreSource source(store, store::CacheBudget::Serving(size_t{64} << 20));
  size_t summarised = 0;
  for (uint32_t k = 0; k < trace_.stores().size(); ++k) summarised += source.summary_finest(k) >= 0;
  ASSERT_GT(summarised, 0u);
  const std::vector<WindowRequest> windows = RandomWindows(trace_, 60);
  ExpectSameWindows(TraceSource(trace_), source, windows);
  ExpectSameStatistics(TraceSource(trace_), source, windows);
  ExpectSameModels(TraceSource(trace_), source, RandomModels(trace_, 40));
}

// A flipped byte in the last frame of summaries (they lie just before the
// first section's frame): reading the summaries it holds fails, naming the
// store.
TEST_P(WindowSummaryTest, CorruptSummaryIsNamed) {
  const std::string store = dir_.path() + "/generated.mstore";
  RunMacroscope("import '" + file_ + "' -o '" + store + "'");
  std::string bytes;
  {
    std::ifstream in(store, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  uint64_t directory = 0, first_section = 0;
  std::memcpy(&directory, bytes.data() + bytes.size() - 32, 8);
  std::memcpy(&first_section, bytes.data() + directory, 8);
  bytes[first_section - 5] = static_cast<char>(bytes[first_section - 5] ^ 0x20);
  {
    std::ofstream out(store, std::ios::binary | std::ios::trunc);
    out << bytes;
  }
  const store::StoreSource source(store, store::CacheBudget::Serving(size_t{64} << 20));
  std::string error;
  for (uint32_t k = 0; k < trace_.stores().size() && error.empty(); ++k) {
    for (int level = 0; level <= source.summary_finest(k) && error.empty(); ++level) {
      try {
        (void)source.summary(k, level, 0, (uint64_t{1} << level) - 1);
      } catch (const UserError& e) {
        error = e.what();
      }
    }
  }
  EXPECT_NE(error.find(store + ": checksum mismatch in summary frame"), std::string::npos) << error;
}

// A store written when summaries were not cut in blocks (section 8) opens
// without them, and answers from its chunks as the trace does.
TEST(OlderSummaries, AreNotRead) {
  const std::string data = std::string(MACROSCOPE_SOURCE_DIR) + "/tests/store/data/";
  Trace trace;
  formats::ReadTrace({data + "lod.trace"}, {}, trace);
  trace.BuildIndexes();
  const store::StoreSource old(data + "lod.v3s.mstore", store::CacheBudget::Serving(size_t{64} << 20));
  for (uint32_t k = 0; k < old.trace().stores().size(); ++k) EXPECT_EQ(old.summary_finest(k), -1);
  macroscope::testing::TempDir dir;
  RunMacroscope("import '" + data + "lod.trace' -o '" + dir.path() + "/lod.mstore'");
  const store::StoreSource now(dir.path() + "/lod.mstore", store::CacheBudget::Serving(size_t{64} << 20));
  size_t summarised = 0;
  for (uint32_t k = 0; k < now.trace().stores().size(); ++k) summarised += now.summary_finest(k) >= 0;
  EXPECT_GT(summarised, 0u);
  const std::vector<WindowRequest> windows = RandomWindows(trace, 20);
  ExpectSameWindows(TraceSource(trace), old, windows);
  ExpectSameWindows(TraceSource(trace), now, windows);
  ExpectSameModels(TraceSource(trace), old, RandomModels(trace, 16));
  ExpectSameModels(TraceSource(trace), now, RandomModels(trace, 16));
}

// A bin whose cells fill several blocks (a link store's bin holds a cell
// per sender): reading that bin alone reads all of them.
TEST(SummaryBlocks, ABinOverSeveralBlocksIsReadWhole) {
  constexpr int kSenders = 600;
  LodSummary summary(TypeKind::kLink, 2);
  for (uint64_t bin : {0, 1, 2, 3}) {
    for (ContainerId row = 0; row < (bin == 2 ? kSenders : 3); ++row) {
      LodCell& c = summary.cells(2).emplace_back();
      c.bin = bin;
      c.row = row;
      c.cell.count = 2;
      c.cell.start = static_cast<double>(bin);
      c.cell.end = static_cast<double>(bin) + 0.5;
      c.cell.first.index = row;
      c.cell.tallies.push_back(ValueTally{1, {}, 2});
    }
  }
  const TimeBins bins(0, 4);
  store::SummaryEntry entry;
  const std::vector<uint8_t> bytes = store::EncodeSummary(summary, bins, entry.parts);
  entry.finest = 2;
  auto read = [&](uint64_t offset, uint64_t size) { return std::span<const uint8_t>(bytes).subspan(offset, size); };
  const std::string path = "test";
  for (uint64_t bin : {1, 2, 3}) {
    const LodSummary got = store::DecodeSummary(entry, 2, bin, bin, TypeKind::kLink, read, path, "summary",
                                                {.strings = 2, .containers = kSenders, .store_size = kSenders});
    size_t in_bin = 0;
    for (const LodCell& c : got.cells(2)) in_bin += c.bin == bin;
    EXPECT_EQ(in_bin, bin == 2 ? size_t{kSenders} : 3u) << "bin " << bin;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Generated, WindowSummaryTest,
    ::testing::Values("--depth 1 --arity 3 --events 300000 --seed 3 --nested --nesting 3 --punctual --links --variables",
                      "--depth 2 --arity 2 --events 200000 --seed 4 --punctual --variables --inner",
                      "--depth 1 --arity 2 --events 200000 --seed 9 --nested --nesting 5"));

}  // namespace
}  // namespace macroscope::server::testing
