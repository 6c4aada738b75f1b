// Reads GStreamer debug logs (debug_line.h) into the trace model, through
// the Pajé simulator like every other reader, in one pass over the text:
// with a sink (streaming) memory holds the open states, not the log.
//
// Mapping (docs/gstreamer.md): a container per process (pid) and per thread
// in it (its address); each message is a state of type "Level" on its
// thread, valued by the level, from its time to the thread's next message
// (the last one to the end of the trace), and a punctual event "Message"
// valued by its category, with the message's location and text as user
// fields. Times are the log's nanoseconds, exact (time base 1 ns, origin 0:
// GStreamer's start).
//
// Lines that are not messages (the program's own output, a cut last line)
// are skipped and counted; blank lines (the ends of messages whose text ends
// with a newline) are passed over. A file without any message, a time that
// goes back on one thread and a time beyond what model times hold are
// refused (UserError "FILE:LINE: message").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "formats/paje/simulator.h"
#include "model/trace.h"

namespace macroscope::gstreamer {

struct ReadReport {
  uint64_t messages = 0;
  uint64_t bytes = 0;
  uint64_t per_level[8] = {};  // messages per level, in debug_line.h's kLevels order
  uint64_t processes = 0, threads = 0;
  // Non-blank lines that are not messages, and where the first one is.
  uint64_t skipped_lines = 0;
  std::string first_skipped_file;
  uint64_t first_skipped_line = 0;

  // One human-readable line per problem counter (none when nothing was skipped).
  std::vector<std::string> Warnings() const;
};

// Reads `files` (merged as one trace; processes are told apart by their
// pid) into `trace`, simulated, with the time span set to [first, last]
// message time. `simulation`: only `sink` and `drain_interval` apply.
ReadReport ReadGstreamer(const std::vector<std::string>& files, Trace& trace,
                         const paje::SimulatorOptions& simulation = {});

// Reads one log held in memory; `name` stands for the file in messages.
ReadReport ReadGstreamerText(std::string_view text, const std::string& name, Trace& trace,
                             const paje::SimulatorOptions& simulation = {});

// True when a complete line of `head` (the first bytes of a file) is a
// GStreamer debug message.
bool LooksLikeGstreamer(std::string_view head);

}  // namespace macroscope::gstreamer
