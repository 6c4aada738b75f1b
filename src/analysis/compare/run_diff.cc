#include "analysis/compare/run_diff.h"

#include <algorithm>
#include <cstdio>

#include "analysis/compare/profile_diff.h"
#include "analysis/compare/thread_diff.h"
#include "analysis/kernel/process_table.h"
#include "analysis/profile.h"
#include "util/error.h"

namespace macroscope::analysis::compare {

namespace {

kernel::ProcessTableRows Threads(const EntitySource& source, const Cancellation* cancel) {
  const Trace& trace = source.trace();
  kernel::ProcessTable table;
  for (uint32_t k = 0; k < trace.stores().size(); ++k) {
    source.ForEachChunk(k, [&](const EntityChunk& chunk) {
      ThrowIfCancelled(cancel);
      table.Add(trace, chunk);
    });
  }
  return table.Rows(trace);
}

std::string AlignmentText(const Alignment& alignment) {
  switch (alignment.mode) {
    case AlignMode::kStart: return "aligned at the start";
    case AlignMode::kEnd: return "aligned at the end";
    case AlignMode::kEvent: return "aligned at the first " + alignment.event;
    case AlignMode::kNone: return "not aligned";
  }
  return {};
}

}  // namespace

DiffView ParseDiffView(std::string_view text, std::string_view option) {
  if (text == "function") return DiffView::kFunction;
  if (text == "container") return DiffView::kContainer;
  if (text == "thread") return DiffView::kThread;
  if (text == "unmatched") return DiffView::kUnmatched;
  if (text == "parts") return DiffView::kParts;
  throw UserError(std::string(option) + ": '" + std::string(text) +
                  "' is not a view: function, container, thread, unmatched or parts");
}

namespace {

// What the differential overview's partition states: "; differential
// overview at p = 0.34: 41 parts, 0.9826 of the full aggregate's gain,
// 0.1204 of its loss".
std::string OverviewFacts(const DifferentialOverviewResult& overview) {
  const size_t parts = overview.partition.parts.size();
  char text[160];
  std::snprintf(text, sizeof text,
                "; differential overview at p = %.4g: %zu part%s, %.4g of the full aggregate's gain, %.4g of its loss",
                overview.p, parts, parts == 1 ? "" : "s", overview.gain_share, overview.loss_share);
  return text;
}

}  // namespace

RunDiff DiffRuns(const Run& a, const Run& b, const Alignment& alignment, DiffView view, bool overview,
                 const Cancellation* cancel) {
  const Trace &ta = a.source.trace(), &tb = b.source.trace();
  CheckComparable(ta, a.name, tb, b.name);
  RunDiff out;
  out.match = MatchContainers(ta, tb);
  out.span = AlignRuns(ta, a.name, tb, b.name, alignment);
  out.summary = MatchingSummary(ta, tb, out.match) + "; " + AlignmentText(alignment) + ", common span " +
                HumanSeconds(static_cast<double>(out.span.span_ns) * 1e-9, 1e-9, false);
  if (overview || view == DiffView::kParts) {
    // Leaves paired by the rule the containers are (MatchLeavesByPath).
    ModelRequest request;
    request.cancel = cancel;
    DifferentialOptions options;
    options.cancel = cancel;
    out.overview = DifferentialOverview(a.source, b.source, out.span.a_start, out.span.b_start, out.span.span_ns,
                                        request, options);
    out.summary += OverviewFacts(*out.overview);
    if (view == DiffView::kParts) {
      out.table = out.overview->parts;
      return out;
    }
  }
  if (view == DiffView::kThread) {
    const kernel::ProcessTableRows a_threads = Threads(a.source, cancel), b_threads = Threads(b.source, cancel);
    if (a_threads.rows.empty()) throw UserError("the thread view: " + a.name + " has no kernel threads");
    if (b_threads.rows.empty()) throw UserError("the thread view: " + b.name + " has no kernel threads");
    out.table = ThreadDiffTable({ta, a_threads}, {tb, b_threads}, out.match);
    return out;
  }
  const Profile a_profile = ComputeProfile(a.source, ProfileRequest{}, cancel);
  const Profile b_profile = ComputeProfile(b.source, ProfileRequest{}, cancel);
  const RunProfile pa{ta, a_profile}, pb{tb, b_profile};
  switch (view) {
    case DiffView::kFunction: out.table = FunctionDiffTable(pa, pb); break;
    case DiffView::kContainer: out.table = ContainerDiffTable(pa, pb, out.match); break;
    case DiffView::kUnmatched: out.table = UnmatchedTable(pa, pb, out.match); break;
    case DiffView::kThread:
    case DiffView::kParts: break;
  }
  return out;
}

std::vector<std::string> DiffRunsColumns() {
  // The views' tables of two empty runs: their columns as the views make them.
  const Trace trace;
  const Profile profile;
  const kernel::ProcessTableRows threads;
  const ContainerMatch match;
  const RunProfile p{trace, profile};
  std::vector<std::string> out;
  for (const Table& table : {FunctionDiffTable(p, p), ContainerDiffTable(p, p, match),
                             ThreadDiffTable({trace, threads}, {trace, threads}, match), UnmatchedTable(p, p, match)})
    for (const std::string& column : table.columns)
      if (std::find(out.begin(), out.end(), column) == out.end()) out.push_back(column);
  return out;
}

}  // namespace macroscope::analysis::compare
