// CTF event times as model times: whole nanoseconds from the trace's first
// timed event (time_base.h), so exact. Shared by both CTF modes (the
// kernel/user mapping and the raw events).
#pragma once

#include "formats/ctf/ctf_event.h"
#include "model/time_base.h"
#include "model/trace.h"

namespace macroscope::ctf {

class EventClock {
 public:
  // Sets the trace's time base (ns, origin 0 until the first timed event).
  explicit EventClock(Trace& trace);

  // The model time of `e`: the first timed event fixes the origin (and the
  // epoch of a Unix-epoch clock) and sets the trace's time base at once, so
  // a streaming sink sees it from the first hand-over; an event without a
  // clock takes the latest time seen. Throws paje::SimulationError (the
  // reader names the file and the event's number) 2^53 ns or more from the
  // origin (docs/time.md).
  double Time(const CtfEvent& e);
  double last() const { return last_; }

 private:
  Trace& trace_;
  TimeBase base_{.num = 1, .den = 1000000000, .whole_ticks = true, .origin = 0, .epoch_ns = std::nullopt};
  double last_ = 0;
  bool any_time_ = false;
};

}  // namespace macroscope::ctf
