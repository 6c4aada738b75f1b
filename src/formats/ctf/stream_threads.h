// CTF streams decoded on several threads (--threads), handed to the caller
// on this one in the order one babeltrace2 graph over all of them delivers
// their events.
//
// Each worker runs its own graph (babeltrace_source.h's CtfGraph: src.ctf.fs,
// packet-overlap filter, muxer, sink) over a scratch folder per trace
// holding links to the trace's `metadata`, its `index` and a share of its
// stream files; babeltrace2 decodes them and the sink turns them into
// CtfEvents there, in blocks. This thread merges the blocks as
// flt.utils.muxer (babeltrace2 2.0) merges streams: by time, and on equal
// times by trace UUID, trace name, stream class id, stream id, event class
// and stream name. A stream without `stream_instance_id` gets its id from
// src.ctf.fs's count over the whole trace (its ports, in file order), not
// the worker's. Each worker's events are already in that order among its
// streams, so the least of the workers' next events is the next event of
// the whole: every event, stream and trace index of ForEachCtfEvent.
//
// The rest stays the sequential reading's: the whole trace is opened
// (indexed) on this thread first, with its errors; a trace whose streams'
// clocks the muxer might refuse, or a worker failing before its first
// event, is read by the one graph instead; a worker failing later stops the
// merge after its last event, and the one graph reads the trace again
// (events dropped) for its message. Graphs are built and destroyed on this
// thread only (babeltrace2's reference counts are not atomic).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "formats/ctf/ctf_event.h"
#include "formats/ctf/packet_overlap.h"

namespace macroscope::ctf {

// ForEachCtfEvent with the streams decoded by up to `threads` workers (the
// one graph when there is a single stream file, or `threads` <= 1).
uint64_t ForEachCtfEventOnThreads(const std::vector<std::string>& trace_directories, const std::string& label,
                                  const std::function<void(const CtfEvent&)>& on_event, PacketOverlaps& overlaps,
                                  int threads);

}  // namespace macroscope::ctf
