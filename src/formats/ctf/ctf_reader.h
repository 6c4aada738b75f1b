// Reads CTF traces (LTTng kernel and userspace, barectf, perf, babeltrace2's
// own writer) into the trace model through babeltrace2 and the Pajé
// simulator. Mapping rules: docs/ctf.md.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "formats/ctf/packet_overlap.h"
#include "formats/paje/simulator.h"
#include "formats/part_exchange.h"
#include "model/trace.h"

namespace macroscope::ctf {

struct CtfReadStats {
  uint64_t events = 0;           // event messages, as `babeltrace2 PATH | wc -l` counts them
  uint64_t bytes = 0;            // size of the trace directories' files
  uint64_t unmatched_exits = 0;  // syscall / interrupt / function exits whose entry precedes the trace
  uint32_t traces = 0;           // trace directories read
  PacketOverlaps overlaps;       // packets that began before the previous one of their stream ended
  std::map<std::string, uint64_t, std::less<>> per_name;  // event messages per event name
};

struct CtfReadOptions {
  // The events babeltrace2 decodes, one punctual entity each (raw_events.h),
  // instead of the mapping of docs/ctf.md.
  bool events_only = false;
  // Threads decoding the streams (stream_threads.h); 1: one graph, on this
  // thread. The result is the same.
  int threads = 1;
  // Streaming: only `sink` and `drain_interval` apply (CTF has no -i, -z).
  paje::SimulatorOptions simulator;
  // The parts of an MPI job (stream_parts.h): each decodes a share of the
  // streams, every part maps them all, part 0 alone keeps the entities.
  formats::PartExchange* share = nullptr;
};

// Reads every CTF trace found at or below each of `paths` (a trace
// directory, its `metadata` file, or a folder holding traces) into `trace`,
// merged in time order; times are whole nanoseconds from the first timed
// event (the trace's TimeBase has that origin, and the epoch for LTTng).
// Throws UserError naming the path for bad input.
CtfReadStats ReadCtf(const std::vector<std::string>& paths, Trace& trace, const CtfReadOptions& options = {});

}  // namespace macroscope::ctf
