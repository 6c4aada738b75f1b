// The CTF reader's events-only mode (formats::ReadOptions::events_only):
// every event message babeltrace2 decodes becomes one punctual entity, and
// nothing else happens (no states, no kernel or user mapping), so counts
// per name are babeltrace2's own.
//
// Model: a container per trace (type "Trace", named as in the mapped mode)
// holding a container per stream (type "Stream", babeltrace2's stream
// name), whose event type "event" holds the events: value = the CTF event
// name, user fields = the event's fields (flattened as in the mapped
// mode), time = ns from the first timed event (event_clock.h).
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "formats/ctf/ctf_event.h"
#include "formats/paje/simulator.h"
#include "model/trace.h"

namespace macroscope::ctf {

class RawEvents {
 public:
  RawEvents(Trace& trace, paje::Simulator& simulator);

  void Map(const CtfEvent& event, double time);
  // Ends the simulation at `last_time` and sets the trace's time span.
  void Finish(double last_time);

 private:
  StringId StreamOf(const CtfEvent& event, double time);

  Trace& trace_;
  paje::Simulator& sim_;
  StringId trace_type_, stream_type_, event_type_;
  std::unordered_map<const CtfTraceInfo*, StringId> traces_;  // root container aliases
  std::vector<std::string> trace_names_;
  std::unordered_map<uint32_t, StringId> streams_;  // global stream index -> container alias
  std::vector<ExtraField> extras_;
};

}  // namespace macroscope::ctf
