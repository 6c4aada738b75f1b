// Which containers of two runs are the same: by path, or where the paths
// differ only by ids (ranks, pids, tids: "rank 3" vs "rank 5",
// "gst-launch-1.0 (1234)" vs "(5678)") by the path with its ids taken out,
// in order of appearance. And whether two traces can be compared at all: a
// kernel trace (CPUs and threads rebuilt from scheduler events) against a
// user-space one (MPI ranks, processes' functions) cannot (docs/compare.md).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/trace.h"

namespace macroscope::analysis::compare {

// Containers of A and B matched by path; where paths differ only by ids
// (numbers in names), by the path with the numbers that are ids taken out,
// in order of appearance; the rest unmatched. The roots are not counted.
struct ContainerMatch {
  std::vector<std::pair<ContainerId, ContainerId>> matched;  // (A's, B's), in A's order
  std::vector<ContainerId> only_a, only_b;                   // in each trace's order
};
ContainerMatch MatchContainers(const Trace& a, const Trace& b);

// The rule itself, on any two lists of paths (containers, a model's
// leaves): equal paths first, then equal PathWithoutIds, k-th with k-th in
// order of appearance. (index in a, index in b) pairs, in A's order.
std::vector<std::pair<size_t, size_t>> MatchPaths(const std::vector<std::string>& a,
                                                  const std::vector<std::string>& b);

// `path` with the numbers that are ids replaced by '#': every hexadecimal
// address ("0x5632fa28c200": a thread's) and every run of digits but those
// of a dotted number ("1.0", "2.38": versions, not ids). "rank 3" ->
// "rank #", "gst-launch-1.0 (1234)" -> "gst-launch-1.0 (#)".
std::string PathWithoutIds(std::string_view path);

// What kind of trace `trace` is, for people: "a kernel trace" (it has the
// CPU or thread containers kernel/kernel_entities.h recognises) or "a
// user-space trace".
std::string_view TraceKind(const Trace& trace);

// UserError saying what does not match when the traces are of different
// kinds (a kernel trace against an MPI/user trace), naming each trace as
// `a_name` and `b_name` (the caller may put the format in them: "a.otf2
// (OTF2)"), or when no container matches at all.
void CheckComparable(const Trace& a, std::string_view a_name, const Trace& b, std::string_view b_name);

}  // namespace macroscope::analysis::compare
