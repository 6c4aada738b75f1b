#include "analysis/compare/alignment.h"

#include <algorithm>
#include <optional>

#include "util/error.h"

namespace macroscope::analysis::compare {

namespace {

// The earliest start of an event or state of value `name`; none when absent.
std::optional<double> FirstOccurrence(const Trace& trace, std::string_view name) {
  std::optional<double> first;
  for (const EntityStore& store : trace.stores()) {
    if (store.kind != TypeKind::kEvent && store.kind != TypeKind::kState) continue;
    for (size_t i = 0; i < store.size(); ++i) {
      if (first && store.start[i] >= *first) continue;
      if (trace.Str(store.value[i]) == name) first = store.start[i];
    }
  }
  return first;
}

double Origin(const Trace& trace, std::string_view name, const Alignment& alignment) {
  switch (alignment.mode) {
    case AlignMode::kStart: return trace.start_time();
    case AlignMode::kEnd: return trace.end_time();
    case AlignMode::kEvent: {
      const std::optional<double> first = FirstOccurrence(trace, alignment.event);
      if (!first) {
        throw UserError("--align event:" + alignment.event + ": " + std::string(name) + " has no event or state named '" +
                        alignment.event + "'");
      }
      return *first;
    }
    case AlignMode::kNone: break;
  }
  return 0;
}

}  // namespace

Alignment ParseAlignment(std::string_view text, std::string_view option) {
  if (text == "start") return {AlignMode::kStart, {}};
  if (text == "end") return {AlignMode::kEnd, {}};
  if (text == "none") return {AlignMode::kNone, {}};
  constexpr std::string_view kEventPrefix = "event:";
  if (text.substr(0, kEventPrefix.size()) == kEventPrefix && text.size() > kEventPrefix.size())
    return {AlignMode::kEvent, std::string(text.substr(kEventPrefix.size()))};
  throw UserError(std::string(option) + ": '" + std::string(text) +
                  "' is not an alignment: start, end, event:NAME or none");
}

int64_t AlignedNanoseconds(const Trace& trace, double origin, double t) {
  const TimeBase& base = trace.time_base();
  return t >= origin ? DurationNanoseconds(base, t - origin) : -DurationNanoseconds(base, origin - t);
}

AlignedSpan AlignRuns(const Trace& a, std::string_view a_name, const Trace& b, std::string_view b_name,
                      const Alignment& alignment) {
  AlignedSpan out{Origin(a, a_name, alignment), Origin(b, b_name, alignment), 0};
  if (alignment.mode == AlignMode::kNone) {
    const TimeBase &ta = a.time_base(), &tb = b.time_base();
    if (ta.epoch_ns && tb.epoch_ns) {
      // B's model time at A's origin's wall-clock instant: the epochs'
      // difference in B's ticks, exact for whole ticks (DurationTicks).
      out.b_origin = DurationTicks(tb, *ta.epoch_ns - *tb.epoch_ns);
    } else if (ta.whole_ticks && tb.whole_ticks && ta.num == tb.num && ta.den == tb.den) {
      out.b_origin = static_cast<double>(ta.origin - tb.origin);
    } else {
      out.a_origin = ta.whole_ticks ? -static_cast<double>(ta.origin) : 0;
      out.b_origin = tb.whole_ticks ? -static_cast<double>(tb.origin) : 0;
    }
  }
  const int64_t lo = std::max(AlignedNanoseconds(a, out.a_origin, a.start_time()),
                              AlignedNanoseconds(b, out.b_origin, b.start_time()));
  const int64_t hi = std::min(AlignedNanoseconds(a, out.a_origin, a.end_time()),
                              AlignedNanoseconds(b, out.b_origin, b.end_time()));
  out.span_ns = std::max<int64_t>(0, hi - lo);
  // A trace whose own start begins the common span gives it exactly (ns
  // turned back into ticks of another length could land a tick off).
  const auto start_at = [lo](const Trace& t, double origin) {
    return AlignedNanoseconds(t, origin, t.start_time()) == lo ? t.start_time()
                                                               : origin + DurationTicks(t.time_base(), lo);
  };
  out.a_start = start_at(a, out.a_origin);
  out.b_start = start_at(b, out.b_origin);
  return out;
}

}  // namespace macroscope::analysis::compare
