// The JSON shape of a trace's time base, one for `info --json` and the
// server (docs/time.md): what one model time unit is, and how model times
// map to the trace clock and to wall-clock time.
#pragma once

#include <nlohmann/json.hpp>

#include "model/trace.h"

namespace macroscope {

// {"unit": "ns", "seconds_per_tick": [1, 1000000000], "whole_ticks": true,
//  "clock_start": "1412670961.211260539", "wall_clock_start":
//  "2014-10-07 08:36:01.211260539" or null}. Integers of the clock are
// strings: JSON readers parse numbers into doubles.
nlohmann::ordered_json TimeBaseJson(const TimeBase& base, double start);
inline nlohmann::ordered_json TimeBaseJson(const Trace& trace) {
  return TimeBaseJson(trace.time_base(), trace.start_time());
}

}  // namespace macroscope
