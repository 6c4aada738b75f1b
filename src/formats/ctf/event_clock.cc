#include "formats/ctf/event_clock.h"

#include <cstdint>
#include <string>

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
  if (__builtin_sub_overflow(*e.time_ns, base_.origin, &ticks)) ticks = INT64_MAX;
  CheckWholeTicks(ticks, "CTF trace " + e.trace->name + ", event `" + std::string(e.name) + "`");
  last_ = static_cast<double>(ticks);
  return last_;
}

}  // namespace macroscope::ctf
