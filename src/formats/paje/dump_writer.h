// Writes a trace in pj_dump's CSV-like text format, line for line what
// pj_dump 1.3.6 prints (the order of lines across containers may differ).
#pragma once

#include <cstdio>

#include "model/trace.h"

namespace macroscope::paje {

struct DumpOptions {
  double start = -1;        // window start; -1: the trace's start
  double end = -1;          // window end; -1: the trace's end
  bool header = false;      // one column-name line per kind of line
  bool user_fields = false; // append user-defined fields
  int precision = 6;        // digits after the point for entity times and values
};

// Throws UserError when the stream cannot be written.
void WriteDump(const Trace& trace, const DumpOptions& options, std::FILE* out);

}  // namespace macroscope::paje
