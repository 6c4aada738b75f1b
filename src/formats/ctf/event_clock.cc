#include "formats/ctf/event_clock.h"

#include <cstdint>
#include <string>

#include "formats/paje/simulator.h"

namespace macroscope::ctf {

EventClock::EventClock(Trace& trace) : trace_(trace) { trace_.SetTimeBase(base_); }

double EventClock::Time(const CtfEvent& e) {
  if (!e.time_ns) return last_;
  if (!any_time_) {
    any_time_ = true;
    base_.origin = *e.time_ns;
    if (e.unix_epoch) base_.epoch_ns = *e.time_ns;
    trace_.SetTimeBase(base_);
  }
  int64_t ticks = 0;
  if (__builtin_sub_overflow(*e.time_ns, base_.origin, &ticks) ||
      static_cast<double>(ticks < 0 ? -ticks : ticks) >= kMaxWholeTicks)
    throw paje::SimulationError("`" + std::string(e.name) + "` at " + std::to_string(*e.time_ns) +
                                " ns from the clock's origin, 2^53 ns or more from the trace's first timed event (" +
                                std::to_string(base_.origin) + "), which macroscope cannot hold exactly");
  last_ = static_cast<double>(ticks);
  return last_;
}

}  // namespace macroscope::ctf
