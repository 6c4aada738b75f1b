// CTF streams decoded by the parts of an MPI job (formats/part_exchange.h):
// each part decodes a share of the stream files, as a worker thread of
// stream_threads.h does (the same plan, one share per part, its own graph
// over a scratch folder of links), and the parts exchange their events in
// rounds, so that every part merges all of them in the one graph's order
// (stream_merge.h) and maps the whole trace.
//
// Every part maps every event: the commands' reductions need the whole
// type and container trees and time span on every part (as a Pajé file
// read whole by every part); the reader keeps part 0's entities only.
//
// Rounds: whenever the merge has used up the events a part sent, every part
// calls AllGather; a part sends its next blocks (up to kRoundBlocks, or
// kRoundBytes) when the others hold none of its events, else nothing. All
// parts merge the same events, so they all run out at the same moment and
// make the same collective calls: no part waits for ever. Each part holds
// at most a round of every part's events.
//
// The rest is stream_threads.h's: a single share (one stream file, streams
// that must stay whole), a share failing before its first event, or streams
// of unlike clocks: the one graph (on threads) reads the whole trace on
// every part; a share failing later ends every part with the one graph's
// message, read again on every part.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "formats/ctf/ctf_event.h"
#include "formats/ctf/packet_overlap.h"
#include "formats/part_exchange.h"

namespace macroscope::ctf {

// Collective: ForEachCtfEvent over the parts of `share`; `threads` for the
// whole reading when the trace cannot be shared.
uint64_t ForEachCtfEventInParts(const std::vector<std::string>& trace_directories, const std::string& label,
                                const std::function<void(const CtfEvent&)>& on_event, PacketOverlaps& overlaps,
                                int threads, formats::PartExchange& share);

}  // namespace macroscope::ctf
