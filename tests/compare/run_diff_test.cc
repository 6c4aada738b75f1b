#include "analysis/compare/run_diff.h"

#include <gtest/gtest.h>

#include "compare_test_traces.h"
#include "test_support.h"

namespace macroscope::analysis::compare {
namespace {

using testing::ReadWhole;
using testing::SharedTestData;

// What a server's request asks of DiffRuns: once its cancellation is set
// (the client has gone), the profiles and the differential overview stop
// instead of reading both traces to the end.
TEST(RunDiff, StopsOnceCancelled) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  const Trace a = ReadWhole({SharedTestData() + "/otf2/ping-pong-otf2/traces.otf2"});
  const Trace b = ReadWhole({SharedTestData() + "/otf2/ping-pong-otf2-papi/traces.otf2"});
  const TraceSource sa(a), sb(b);
  const compare::Run ra{sa, "A"}, rb{sb, "B"};
  const Alignment start = ParseAlignment("start", "align");
  EXPECT_GT(DiffRuns(ra, rb, start, DiffView::kFunction).table.rows(), 0u);
  Cancellation cancel;
  cancel.Cancel();
  for (const DiffView view : {DiffView::kFunction, DiffView::kContainer, DiffView::kUnmatched, DiffView::kParts})
    EXPECT_THROW(DiffRuns(ra, rb, start, view, false, &cancel), Cancelled) << static_cast<int>(view);
}

}  // namespace
}  // namespace macroscope::analysis::compare
