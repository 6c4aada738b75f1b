// Reads a Paraver trace (the BSC tools' format: Extrae, Dimemas) into the
// trace model, through the Pajé simulator like every other reader.
//
// The .prv holds a header (time unit and length, the nodes with their CPUs,
// the applications with their tasks and threads) and time-ordered records:
// states (1), events (2, one or more type:value pairs), communications (3,
// logical and physical send and receive times), global operations (4, an
// older kind) and communicators (c, i). The .pcf and .row beside it, when
// present, name states, event types and values, and the objects. The
// mapping is in docs/paraver.md: containers Application > Task > Thread, one
// state type, one event type per Paraver event type and one for global
// operations, communications as links; what has no place in the model
// (communicators, the nodes, the names of CPUs...) as user fields.
//
// Times are the file's integers in its unit (µs unless the header names
// another), kept as whole ticks: nothing is rounded. Records are read and
// simulated one by one (a state's end is applied when its thread moves
// past it), so with a sink the trace streams in bounded memory.
//
// Bad input (UserError "FILE:LINE: message"): a header that does not parse,
// a record of an unknown kind, a field that is not a number, an object the
// header does not have, a state that overlaps another without nesting in
// it, time going backwards on a thread, a communication sent and received
// before its logical send, a communicator naming a task that is neither
// its application's nor -1, fewer communicators than the header counts, a
// .pcf or .row that does not parse or does not fit the header.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "formats/paje/simulator.h"
#include "model/trace.h"

namespace macroscope::paraver {

struct ReadReport {
  uint64_t records = 0;  // lines of records (states, events, communications, global operations, communicators)
  uint64_t bytes = 0;    // of the .prv
  uint64_t states = 0, events = 0, communications = 0, global_operations = 0;
  uint64_t communicators = 0;  // c: and i: lines
};

// The names of the companion files of `prv` (X.prv -> X.pcf, X.row).
std::string CompanionFile(const std::string& prv, std::string_view extension);

// Reads `prv`, and its .pcf and .row when they exist.
ReadReport ReadParaver(const std::string& prv, Trace& trace, const paje::SimulatorOptions& simulation = {});

// Reads a trace held in memory; `pcf` and `row` empty: absent. `name`
// stands for the .prv in messages (the companions are NAME.pcf, NAME.row).
ReadReport ReadParaverText(std::string_view prv, std::string_view pcf, std::string_view row, const std::string& name,
                           Trace& trace, const paje::SimulatorOptions& simulation = {});

// True when `head` (the first bytes of a file) starts like a .prv.
bool LooksLikeParaver(std::string_view head);

}  // namespace macroscope::paraver
