// How the times of two runs are put on one axis: both start at 0 (the
// default), both end at 0, both at 0 at the first occurrence of a named
// event or state, or not aligned (each clock as it is). docs/compare.md.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "model/trace.h"

namespace macroscope::analysis::compare {

enum class AlignMode { kStart, kEnd, kEvent, kNone };
struct Alignment {
  AlignMode mode = AlignMode::kStart;
  std::string event;  // kEvent: the event's or state's name
};

// "start", "end", "event:NAME", "none"; UserError naming `option` otherwise.
Alignment ParseAlignment(std::string_view text, std::string_view option);

// The times (each in its own trace's ticks, model time) that are 0 of the
// aligned time, and the common span in ns both cover:
// - start: A's and B's start;
// - end: A's and B's end: aligned time runs up to 0 at the end, so every
//   aligned time is <= 0 (the time before the end, negated);
// - event: the first occurrence (earliest start) of an event or state whose
//   value is NAME in each; UserError naming the trace it is absent from;
// - none: each trace's clock as it is: when both clocks have an epoch (wall
//   clocks), A's origin and the instant of B at that same wall-clock time;
//   else when both count whole ticks of the same length, A's origin and B's
//   time of A's origin's clock reading (the clocks compared as they read,
//   one constant taken out of both so that times stay exact); else each
//   clock's zero.
// span_ns: the length of the intersection of [start, end] of each trace on
// the aligned axis (0 when they do not overlap); a_start, b_start: where that
// intersection starts, in each trace's model time (the origins when aligned
// at the starts; span_ns before the ends when aligned at the ends), exact
// in whole ticks: the window the differential overview models.
struct AlignedSpan {
  double a_origin, b_origin;
  int64_t span_ns;
  double a_start = 0, b_start = 0;
};
AlignedSpan AlignRuns(const Trace& a, std::string_view a_name, const Trace& b, std::string_view b_name,
                      const Alignment& alignment);

// The model time `t` of `trace` as aligned ns (t - origin, rounded to the
// nearest ns, exact in integers for whole ticks; negative before the origin).
int64_t AlignedNanoseconds(const Trace& trace, double origin, double t);

}  // namespace macroscope::analysis::compare
