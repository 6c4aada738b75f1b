// `macroscope diff A B` whole (docs/compare.md): two runs read, checked to
// be comparable, their containers matched, their times aligned, and the
// table a view asks for: per function, per matched container, per kernel
// thread, or the unmatched containers. The command prints it; this is the
// one place that computes it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/cancellation.h"
#include "analysis/compare/alignment.h"
#include "analysis/compare/differential_overview.h"
#include "analysis/compare/run_matching.h"
#include "analysis/table.h"
#include "model/entity_source.h"

namespace macroscope::analysis::compare {

enum class DiffView { kFunction, kContainer, kThread, kUnmatched, kParts };
// "function", "container", "thread", "unmatched", "parts"; UserError naming
// `option`.
DiffView ParseDiffView(std::string_view text, std::string_view option);

// One run: its entities and the name messages give it (its file, with its
// format: "a.otf2 (otf2)").
struct Run {
  const EntitySource& source;
  std::string name;
};

struct RunDiff {
  Table table;
  // The differential overview (differential_overview.h) of the state-time
  // models over the common span, when the view is kParts (its table is the
  // parts table) or `overview` is asked of DiffRuns.
  std::optional<DifferentialOverviewResult> overview;
  ContainerMatch match;
  AlignedSpan span{};
  // "2 containers matched; none only in A; none only in B; aligned at the
  // start, common span 1.5 s", and with the overview what its partition
  // states ("; differential overview at p = 0.34: 41 parts, 0.98 of the
  // full aggregate's gain, 0.12 of its loss"): one line for people.
  std::string summary;
};

// Throws UserError when the runs are of different kinds or share no
// container (CheckComparable), when the alignment's event is absent from
// one, or for the thread view of traces that are not kernel traces. The
// profile tables cover each whole run (the alignment places the runs on one
// axis for pictures and says the span they share). Stops with Cancelled
// between chunks once `cancel` is set (a server's request).
RunDiff DiffRuns(const Run& a, const Run& b, const Alignment& alignment, DiffView view, bool overview = false,
                 const Cancellation* cancel = nullptr);

// Every column the tables of the views function, container, thread and
// unmatched may have, each once, in that order of views (a view's new
// columns after the earlier views'): one column set for all four, a view
// filling its own (an SQL function's fixed columns: profile_diff()).
std::vector<std::string> DiffRunsColumns();

}  // namespace macroscope::analysis::compare
