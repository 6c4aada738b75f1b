// Writes any trace of the model as a Paraver trace: X.prv, X.pcf, X.row.
//
// Paraver knows applications > tasks > threads and, on threads, one state
// at a time, events (integer type:value) and communications. Flattening:
// every container that holds states or events, ends a link or is a leaf
// becomes a thread; its task is its parent (itself under the root), the
// task's application is the task's parent (one default application under
// the root). States of every state type are state records (numbered by
// their declared numeric alias, else their name when it is a number, else
// in order), each event type an event type (the same numbering), links
// communications (logical times and size from the user fields the reader
// gives them; the tag is the link's value when it is a number), the
// reader's "Global operation" events global operation records (4).
// Variables have no Paraver record: they are counted and left out. Names
// go to the .pcf (states, colours, event types and values) and the .row
// (objects); what the reader kept as user fields (communicators, the
// header's nodes, the tasks' nodes, the .row's other levels) goes back
// where it came from.
// Times: integer ticks as they are for ns, µs and ms clocks, otherwise
// rounded to the nanosecond. docs/paraver.md.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "model/trace.h"

namespace macroscope::paraver {

struct WriteStats {
  uint64_t threads = 0, states = 0, events = 0, communications = 0, global_operations = 0;
  uint64_t variables = 0;  // variable values left out
};

// Writes the three files; throws UserError when one cannot be written.
WriteStats WriteParaver(const Trace& trace, std::FILE* prv, std::FILE* pcf, std::FILE* row);

// Writes `prv` and its companions (X.pcf, X.row beside it), each whole or
// not at all (AtomicFile).
WriteStats WriteParaverFiles(const Trace& trace, const std::string& prv);

}  // namespace macroscope::paraver
