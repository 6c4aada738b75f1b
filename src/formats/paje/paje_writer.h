// Writes any trace of the model as a Pajé text trace whose pj_dump output
// is the line set of the trace's own dump (the Pajé -> model -> Pajé round
// trip is equal under pj_dump).
//
// The file: a header with one %EventDef per shape of record used (user
// fields included), the type tree and declared values, then every change
// in time order: containers created, states pushed and popped level by
// level in the order the simulator opened them, events, variable values
// (set), links (start and end, same key), containers destroyed (children
// first at equal times). A state's or link's user fields from both ends
// are all written on its opening record.
//
// Limits: Pajé words cannot hold '"' or a line break inside quotes, nor be
// empty: such strings are written with '"' -> '\'', line break -> ' ', and
// an empty string as "" (read back as '"'); they are counted.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "model/trace.h"

namespace macroscope::paje {

struct PajeWriteStats {
  uint64_t lines = 0;      // event lines after the header
  uint64_t sanitized = 0;  // strings changed to fit Pajé's words
};

// Throws UserError when the stream cannot be written.
PajeWriteStats WritePaje(const Trace& trace, std::FILE* out);

// Writes to `path` whole or not at all (AtomicFile).
PajeWriteStats WritePajeFile(const Trace& trace, const std::string& path);

}  // namespace macroscope::paje
