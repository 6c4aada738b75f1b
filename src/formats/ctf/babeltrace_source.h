// The babeltrace2 side of the CTF reader: a graph of the `ctf` plugin's
// `src.ctf.fs` source (every trace directory given as `inputs`), the
// `utils` plugin's `flt.utils.muxer` (time order over all streams of all
// traces; before it, the packet-overlap filter of packet_overlap.h on
// every stream) and a simple sink that decodes each event message into a
// CtfEvent and hands it to a callback, in time order.
//
// babeltrace2 logging is off (components are created at level NONE); when
// decoding fails, the causes babeltrace2 records become the UserError.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "formats/ctf/ctf_event.h"
#include "formats/ctf/packet_overlap.h"

namespace macroscope::ctf {

// Reads the traces in `trace_directories` (each a directory holding a
// `metadata` file) and calls `on_event` for every event message, in time
// order. Throws UserError starting with `label` when babeltrace2 cannot
// read them; exceptions thrown by `on_event` propagate unchanged.
// Counts the packets that overlap the previous one of their stream into
// `overlaps`. Returns the number of event messages.
uint64_t ForEachCtfEvent(const std::vector<std::string>& trace_directories, const std::string& label,
                         const std::function<void(const CtfEvent&)>& on_event, PacketOverlaps& overlaps);

}  // namespace macroscope::ctf
