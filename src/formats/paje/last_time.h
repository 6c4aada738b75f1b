// The time a Pajé file ends at, told before reading it: what a streaming
// reading needs to cut its time slices before the first entity comes. Only
// the header and the last event line are read, so the answer costs the
// same for a file of a kilobyte or of gigabytes; the caller checks it
// against the reading's end.
#pragma once

#include <optional>
#include <string>

namespace macroscope::paje {

// The time a whole reading of the Pajé file `path` ends at (Trace::end_time()
// after ReadPaje of that one file, without --sort), told from the file's
// header and its last event line only, in a few milliseconds whatever its
// size. Nothing when that cannot be told so: a PajeTraceFile event (another
// file may follow), a last line that is a definition or has an id the header
// does not define, a time that does not parse, standard input ("-"), a file
// that cannot be read.
std::optional<double> LastEventTime(const std::string& path, bool no_strict);

}  // namespace macroscope::paje
