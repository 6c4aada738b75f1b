// What a trace's time values mean, and how they are read and written.
//
// Model times are doubles in the trace's own tick. Readers of integer clocks
// (CTF's nanoseconds, OTF2's timer ticks, Chrome's microseconds read from
// their text as nanoseconds) store whole ticks counted from an origin near
// the trace's first event: a double holds every integer below 2^53 exactly
// (104 days of nanoseconds; CheckWholeTicks refuses more), so no timestamp
// is ever rounded, differences are exact and order is the reader's. Pajé
// traces keep the numbers their text gives (seconds), as pj_dump reads them.
//
// Everything a person or a program reads goes through here: the trace's own
// clock printed exactly (origin + ticks, in integer arithmetic), times
// relative to the trace start in a unit for people, wall-clock time where
// the clock has an epoch, and the parsing of times given on command lines.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "util/exact_sum.h"

namespace macroscope {

struct TimeBase {
  // One tick lasts num/den seconds: 1/1000000000 for CTF and Chrome,
  // 1/resolution for OTF2, 1/1 for Pajé.
  uint64_t num = 1, den = 1;
  // Model times are whole ticks counted from `origin` ticks of the clock.
  bool whole_ticks = false;
  int64_t origin = 0;
  // Nanoseconds since 1970-01-01 UTC at the origin (model time 0), when the
  // clock is a wall clock (LTTng's; an OTF2 timer with a realtime stamp).
  std::optional<int64_t> epoch_ns;

  bool operator==(const TimeBase&) const = default;
  double SecondsPerTick() const { return static_cast<double>(num) / static_cast<double>(den); }
  // Model time -> seconds, for analyses and pictures that only need a scale.
  double Seconds(double ticks) const { return ticks / static_cast<double>(den) * static_cast<double>(num); }
  double Ticks(double seconds) const { return seconds / static_cast<double>(num) * static_cast<double>(den); }
  // "ns", "µs", "s", or "1/2095197216 s".
  std::string UnitName() const;
};

// The first model time whose magnitude a double no longer holds exactly.
inline constexpr double kMaxWholeTicks = 9007199254740992.0;  // 2^53

// Throws UserError("WHERE: ...") when `ticks` (a count from the origin) is
// beyond what model times hold exactly.
void CheckWholeTicks(int64_t ticks, std::string_view where);

// The clock's own time of model time `t` in seconds with `decimals` digits
// (what dump prints and what babeltrace2 --clock-seconds prints for CTF):
// exact for whole ticks; for other traces t's double printed as is.
void AppendClockSeconds(std::string& out, const TimeBase& base, double t, int decimals);
// The same for a duration (no origin).
void AppendDurationSeconds(std::string& out, const TimeBase& base, double d, int decimals);
// A duration `d` (model time units, >= 0) in whole nanoseconds, rounded to
// the nearest: exact in integers for whole ticks, else from d's seconds.
int64_t DurationNanoseconds(const TimeBase& base, double d);
// The same of an exact sum of durations (util/exact_sum.h), rounded once:
// for whole ticks the sum of the ticks in integers, however far beyond
// 2^53 it goes (a profile's total over thousands of threads).
int64_t DurationNanoseconds(const TimeBase& base, const ExactSum& d);
// The inverse of DurationNanoseconds: `ns` nanoseconds as a duration of
// `base`, in whole ticks (rounded to the nearest, in integers) when the
// base has them.
double DurationTicks(const TimeBase& base, int64_t ns);
// Decimal seconds ("1412670961.211260539") as a whole count of `base`'s
// ticks from the clock's zero (the origin not taken away), rounded to the
// nearest tick, in integers; false when `text` is not a plain decimal number
// or is out of range. What text readers use to keep every digit.
bool ParseClockTicks(const TimeBase& base, std::string_view text, int64_t& ticks);
// Decimals that write one tick of `base` in seconds exactly (9 for ns), or
// 12 when the tick is not a decimal fraction of a second.
int DecimalsOfTick(const TimeBase& base);
// The clock's own tick count of model time t (whole ticks only).
int64_t ClockTicks(const TimeBase& base, double t);

// For people: `seconds` (a time relative to the trace start, or a length)
// in the unit its magnitude calls for, with the decimals `resolution` (in
// seconds) needs: "2.794 729 s", "412.5 µs", "118 ns"; resolution 0: every
// digit down to the ns, less trailing groups of zeros ("3367 s"). `sign`
// puts a '+' before times relative to the start. `magnitude` > 0 picks the
// unit instead of |seconds|: the labels of one axis share one unit.
std::string HumanSeconds(double seconds, double resolution, bool sign, double magnitude = 0);

// Wall-clock time of model time t, "2016-03-04 17:46:22.794728808" (UTC),
// or "" when the clock has no epoch.
std::string WallClock(const TimeBase& base, double t);

// A time given by a person, to a model time: "+2.5s", "+412.5us", "+118ns"
// (relative to `trace_start`, a model time; units s ms us µs ns, default
// s), a plain number (the clock's own seconds, as dump prints them and
// pj_dump takes them), or "2016-03-04 17:46:22.79" / "...T..." (wall clock,
// UTC). Throws UserError naming `option` on anything else.
double ParseTime(const TimeBase& base, std::string_view text, double trace_start, std::string_view option);

}  // namespace macroscope
