// The CTF reader's Memory variable: for LTTng-UST's libc wrapper events
// (lttng_ust_libc:malloc ...), the bytes in use of the event's process,
// set on that process's container (type "Memory", alias
// ctf.process.memory) at each change. The bytes come from the one memory
// tracker (analysis/kernel/memory_tracker.h), one per CTF trace;
// docs/kernel.md gives the rules. EventMapper calls Map for every
// userspace event that is not a cyg-profile call.
#pragma once

#include <string_view>
#include <unordered_map>

#include "analysis/kernel/memory_tracker.h"
#include "formats/ctf/ctf_event.h"
#include "formats/paje/simulator.h"
#include "model/trace.h"

namespace macroscope::ctf {

class LibcMemory {
 public:
  LibcMemory(Trace& trace, paje::Simulator& simulator) : trace_(trace), sim_(simulator) {}

  // `alias_prefix`: the prefix of the event's trace's container aliases
  // ("t0."): its processes are "<prefix>pid:<vpid>" (event_mapper.cc),
  // which exist once a userspace event with vtid and vpid was mapped.
  void Map(const CtfEvent& event, std::string_view alias_prefix, double time);

 private:
  Trace& trace_;
  paje::Simulator& sim_;
  StringId type_ = kEmptyString;  // defined at the first change
  std::unordered_map<const CtfTraceInfo*, analysis::kernel::MemoryTracker> trackers_;
};

}  // namespace macroscope::ctf
