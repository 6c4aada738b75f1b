// A trace's times as a query gives them (schema.h): INTEGER ticks of the
// trace's own clock when it counts whole ticks, REAL otherwise (the decimal
// numbers of a Pajé or CSV text), and nanoseconds where ticks are; and a
// query's bounds back to model times, to prune what is read.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>

#include "analysis/table.h"
#include "model/time_base.h"

namespace macroscope::query {

class Clock {
 public:
  explicit Clock(const TimeBase& base);

  bool whole() const { return base_.whole_ticks; }
  // Model time t as the clock's tick count (whole clocks only).
  int64_t Ticks(double t) const { return ClockTicks(base_, t); }
  // Ticks as nanoseconds: exact when a tick is a whole number of
  // nanoseconds, else rounded to the nearest (ties away from zero).
  int64_t Ns(int64_t ticks) const;

  // Whole ticks on each side of `ns` nanoseconds of the clock (a little
  // wider: a query's bound in ns as ticks that keep every row it may
  // select).
  std::pair<int64_t, int64_t> TicksAround(double ns) const;

  // Model time t as a cell: ticks, or the REAL time.
  analysis::Cell Time(double t) const;
  // t in nanoseconds as a cell; empty for a clock of decimal times.
  analysis::Cell TimeNs(double t) const;

  // A query's bound (ticks or a REAL time) as a model time.
  double ModelTime(double bound) const { return whole() ? bound - static_cast<double>(base_.origin) : bound; }
  double ModelTime(int64_t bound) const;

 private:
  TimeBase base_;
  // ns per tick when whole (num * 10^9 / den an integer), else 0.
  int64_t ns_per_tick_ = 0;
};

}  // namespace macroscope::query
