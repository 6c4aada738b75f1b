// The window answered from level-of-detail summaries (model/lod_summary.h)
// is the window answered from the entities, byte for byte: on generated
// traces of every entity kind, with random windows at every zoom, the
// summaries built as deep as a store allows and deeper.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "formats/format.h"
#include "model/entity_source.h"
#include "model/lod_summary.h"
#include "serve_process.h"
#include "server/window.h"
#include "test_support.h"

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
  std::shared_ptr<const LodSummary> summary(uint32_t k) const override { return summaries_[k]; }
  size_t summarised() const {
    size_t n = 0;
    for (const auto& s : summaries_) n += s != nullptr;
    return n;
  }

 private:
  std::vector<std::shared_ptr<const LodSummary>> summaries_;
};

class WindowSummaryTest : public ::testing::TestWithParam<std::string> {};

TEST_P(WindowSummaryTest, SameAnswersAsTheEntities) {
  macroscope::testing::TempDir dir;
  const std::string file = dir.path() + "/generated.trace";
  RunMacroscope("generate " + GetParam() + " -o '" + file + "'");
  Trace trace;
  formats::ReadTrace({file}, {}, trace);
  trace.BuildIndexes();
  const TraceSource plain(trace);
  const double t0 = trace.start_time(), span = trace.end_time() - trace.start_time();
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> unit(0, 1);
  for (int deeper : {0, 3, -2}) {
    const SummarisedSource summarised(trace, deeper);
    ASSERT_GT(summarised.summarised(), 0u);
    for (int k = 0; k < 60; ++k) {
      WindowRequest request;
      // Zooms from wider than the trace to a millionth of it; some windows
      // on the trace's edges.
      const double width = span * std::pow(10.0, -6 * unit(random)) * (k % 10 == 0 ? 3 : 1);
      const double start = k % 7 == 0 ? t0 : t0 - 0.1 * width + unit(random) * (span - 0.8 * width);
      request.start = start;
      request.end = start + width;
      request.width = std::vector<int>{1, 17, 300, 1600}[k % 4];
      if (k % 5 == 1) request.types = {trace.stores()[k % trace.stores().size()].type};
      SCOPED_TRACE("deeper " + std::to_string(deeper) + ", window " + std::to_string(k));
      const std::string expected = WindowJson(plain, request);
      const std::string answer = WindowJson(summarised, request);
      ASSERT_EQ(answer.size(), expected.size());
      ASSERT_TRUE(answer == expected);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Generated, WindowSummaryTest,
    ::testing::Values("--depth 1 --arity 3 --events 300000 --seed 3 --nested --nesting 3 --punctual --links --variables",
                      "--depth 2 --arity 2 --events 200000 --seed 4 --punctual --variables --inner",
                      "--depth 1 --arity 2 --events 200000 --seed 9 --nested --nesting 5"));

}  // namespace
}  // namespace macroscope::server::testing
