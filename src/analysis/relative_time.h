// A model time as the query tables give a time relative to the trace's
// start: whole ticks, or the decimal time (query/clock.h).
#pragma once

#include <cstdint>
#include <utility>

#include "analysis/table.h"
#include "model/trace.h"

namespace macroscope::analysis {

inline Cell RelativeTime(const Trace& trace, double t) {
  const double d = t - trace.start_time();
  if (trace.time_base().whole_ticks) return Cell(std::in_place_type<int64_t>, static_cast<int64_t>(d));
  return Cell(std::in_place_type<double>, d);
}

}  // namespace macroscope::analysis
