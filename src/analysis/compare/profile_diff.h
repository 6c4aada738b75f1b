// The profiles of two runs side by side (docs/compare.md): per function and
// per matched container, calls, inclusive and exclusive time in A and B,
// the differences (B - A) and ratios (B / A, empty when A's is 0), sorted
// by the absolute inclusive difference, largest first; and the containers
// of one run only. Built on the one profile (analysis/profile.h: the call
// per container and function sums), its sums exact, rounded once to ns per
// run.
#pragma once

#include <cstddef>
#include <string>

#include "analysis/compare/run_matching.h"
#include "analysis/profile.h"
#include "analysis/table.h"
#include "model/trace.h"

namespace macroscope::analysis::compare {

// One run's profile and its trace.
struct RunProfile {
  const Trace& trace;
  const Profile& profile;
};

// One row per function of either run (by name; 0 in the run without it),
// summed over all its containers: function, calls_a, calls_b, calls_diff,
// inclusive_a_ns, inclusive_b_ns, inclusive_diff_ns, inclusive_ratio,
// exclusive_a_ns, exclusive_b_ns, exclusive_diff_ns, exclusive_ratio.
Table FunctionDiffTable(const RunProfile& a, const RunProfile& b);

// One row per matched container: container (A's path), container_b (B's
// path when it differs, else empty), then the same columns, a container's
// functions summed: calls, exclusive time (the time in its states), and
// inclusive time that of its outermost calls (the time inside any function,
// which the inclusive times of nested functions summed would count again).
Table ContainerDiffTable(const RunProfile& a, const RunProfile& b, const ContainerMatch& match);

// One row per container of one run only, A's then B's, each in its trace's
// order: run ("A" or "B"), container (path), calls, inclusive_ns,
// exclusive_ns (as ContainerDiffTable sums them).
Table UnmatchedTable(const RunProfile& a, const RunProfile& b, const ContainerMatch& match);

// "3 containers matched; only in A: rank 4; only in B: rank 5, rank 6": the
// one-line summary of a matching (at most `listed` names per run, then "and
// N more").
std::string MatchingSummary(const Trace& a, const Trace& b, const ContainerMatch& match, size_t listed = 10);

}  // namespace macroscope::analysis::compare
