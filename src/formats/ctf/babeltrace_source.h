// The babeltrace2 side of the CTF reader: a graph of the `ctf` plugin's
// `src.ctf.fs` source (every trace directory given as `inputs`), the
// `utils` plugin's `flt.utils.muxer` (time order over all streams of all
// traces; before it, the packet-overlap filter of packet_overlap.h on
// every stream) and a simple sink that decodes each event message into a
// CtfEvent and hands it to a callback, in time order.
//
// babeltrace2 logging is off (components are created at level NONE); when
// decoding fails, the causes babeltrace2 records become the UserError.
//
// The graph can also be built on one thread and run on another
// (CtfGraph, for stream_threads.h); its sink then tells each stream as it
// begins, with what flt.utils.muxer orders equal times by.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
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

// What babeltrace2 stops on when corrupt data trips one of its assertions
// (the AbortGuard's message while a CTF graph is built or runs).
std::string CtfAbortMessage(const std::string& label);

// The output port names of the src.ctf.fs component over each directory
// ("UUID-or-path | stream class id | stream id-or-first file"; in
// src.ctf.fs's order, which numbers the streams without a
// `stream_instance_id`), as ForEachCtfEvent creates them: its errors for an
// unreadable trace; none for a trace without streams. Call under an AbortGuard.
std::vector<std::vector<std::string>> CtfStreamPorts(const std::vector<std::string>& trace_directories,
                                                     const std::string& label);

// A stream as the muxer (babeltrace2 2.0) orders it among messages of equal
// time: by trace UUID (one before none), trace name, stream class id, stream
// id, then the event class and the stream's name; and its default clock
// class, which the muxer requires to be alike over all streams.
struct CtfStreamIdentity {
  using Uuid = std::array<uint8_t, 16>;
  std::string path;  // src.ctf.fs's stream name: the path of its first file
  std::optional<Uuid> trace_uuid;
  std::optional<std::string> trace_name;
  uint64_t stream_class_id = 0;
  uint64_t stream_id = 0;
  bool has_clock = false;
  bool clock_unix_epoch = false;
  std::optional<Uuid> clock_uuid;
  std::string clock_name;
};

// One ForEachCtfEvent graph, built by the constructor (its errors) and run
// by Run, maybe on another thread: one thread at a time uses it, and
// babeltrace2 objects shared between graphs (plugins, component classes)
// are only touched while graphs are built and destroyed. Construct, run
// and destroy under an AbortGuard.
class CtfGraph {
 public:
  // `overlaps` must outlive the graph.
  CtfGraph(const std::vector<std::string>& trace_directories, const std::string& label, PacketOverlaps& overlaps);
  ~CtfGraph();
  CtfGraph(const CtfGraph&) = delete;
  CtfGraph& operator=(const CtfGraph&) = delete;

  // Runs the graph to its end, as ForEachCtfEvent; `on_event` may take the
  // event's content (swap it away: every member is set anew for the next
  // event). With `on_stream`, each stream's beginning first calls it with
  // the `stream` index its events will carry (indices in the order streams
  // begin, not of first events). The views of the events stay valid while
  // the graph lives.
  uint64_t Run(const std::function<void(CtfEvent&)>& on_event,
               const std::function<void(uint32_t, const CtfStreamIdentity&)>& on_stream = nullptr);

 private:
  struct Parts;
  std::unique_ptr<Parts> parts_;
};

}  // namespace macroscope::ctf
