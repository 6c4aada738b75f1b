// The one front door for traces: every supported format is described by a
// Format (name, content sniffer, reader) listed in format_registry.cc, so
// detection is data, not an if-chain. Commands call ReadTrace() and never
// name a format.
#pragma once

#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/paje/reader.h"
#include "formats/part_exchange.h"
#include "model/entity_sink.h"
#include "model/trace.h"

namespace macroscope::formats {

// The kinds of entities a caller reads (TypeKind: states, events,
// variables, links), a bit each. A reader may leave the other kinds out
// where that saves work; the trace's containers, span and time base are
// those of a whole reading.
class EntityKinds {
 public:
  static EntityKinds All() { return EntityKinds(0xff); }
  static EntityKinds Only(std::initializer_list<TypeKind> kinds) {
    uint8_t bits = 0;
    for (TypeKind kind : kinds) bits |= Bit(kind);
    return EntityKinds(bits);
  }
  bool Has(TypeKind kind) const { return (bits_ & Bit(kind)) != 0; }

 private:
  explicit EntityKinds(uint8_t bits) : bits_(bits) {}
  static uint8_t Bit(TypeKind kind) { return static_cast<uint8_t>(1u << static_cast<unsigned>(kind)); }
  uint8_t bits_;
};

// Options of every reader; each format takes what applies to it.
struct ReadOptions {
  paje::ReadOptions paje;  // no_strict; simulator (no_imbrication, ignore_incomplete_links, drain_interval)
  // Streaming (model/entity_sink.h, docs/streaming.md): every format hands
  // its completed entities to `sink` as it reads, and the trace keeps only
  // what is still open, so a trace larger than memory reads. Null: the
  // trace keeps everything (the in-memory model).
  EntitySink* sink = nullptr;
  // CTF only: the events babeltrace2 decodes, each a punctual entity of
  // type "event" (value: the CTF event name) on its stream, instead of the
  // kernel/user mapping. Other formats ignore it (their entities are
  // already their events).
  bool events_only = false;
  // Threads reading the trace (--threads), besides the one simulating: 0,
  // one per core but the simulating thread's; 1, the sequential reader.
  // Pajé: threads decoding lines (paje/reader.h); OTF2: threads decoding
  // the locations' event files (otf2/location_threads.h); CTF: threads
  // decoding stream files (ctf/stream_threads.h). The result is the
  // sequential reader's.
  int threads = 0;
  // Reading in parts (part_exchange.h, docs/mpi.md): this process reads its
  // share of a trace (OTF2: its locations; Pajé files: its byte range; CTF:
  // the decoding of its streams) and meets the other parts through `share`.
  // Null: the whole trace (src/mpi gives it for OTF2, Pajé and CTF only).
  PartExchange* share = nullptr;
  // What the reading counts into (util/progress_line.h): entities
  // simulated, and bytes where the reader knows them (Pajé). Null:
  // ReadTrace counts into its own and draws it as a progress line when
  // `show_progress` (the commands set it; standard error must be a
  // terminal), else nothing is counted.
  Progress* progress = nullptr;
  bool show_progress = false;
  // Only what describes the trace (types, containers, values, strings, the
  // stores) and each store's number of entities, in ReadStats::store_sizes,
  // where the format keeps them apart from the entities: a chunked store
  // reads its header and directories, not one chunk (`info`). Other
  // formats read as usual and leave store_sizes empty.
  bool description_only = false;
  // What the caller reads (EntityKinds): OTF2 leaves out the messages
  // (links) or the regions' enter/leave records (states) not asked for;
  // other formats read everything.
  EntityKinds kinds = EntityKinds::All();
};

// The simulator options a non-Pajé reader takes from `options`: the sink
// and its drain interval (the Pajé flags -z, -i are Pajé's own).
inline paje::SimulatorOptions StreamingSimulation(const ReadOptions& options) {
  paje::SimulatorOptions simulation;
  simulation.sink = options.sink;
  simulation.drain_interval = options.paje.simulator.drain_interval;
  simulation.progress = options.progress;
  return simulation;
}

// What a reader tolerated, one line each on stderr, naming the (first)
// file: never a silent drop.
inline void WarnTolerated(const std::string& file, const std::vector<std::string>& warnings) {
  for (const std::string& w : warnings) std::fprintf(stderr, "macroscope: warning: %s: %s\n", file.c_str(), w.c_str());
}

struct ReadStats {
  uint64_t events = 0;  // records read (lines, OTF2 events, CTF messages, JSON events)
  uint64_t bytes = 0;   // bytes of input
  std::vector<uint64_t> store_sizes = {};  // by store, when read for its description only (above)
};

struct Format {
  std::string_view name;         // "paje", "otf2", "ctf", "chrome", ...
  std::string_view description;  // one line for `macroscope formats`
  // True when `path` holds a trace of this format. `head` holds the first
  // bytes of the file (at most 4 KiB; empty when `path` is a directory).
  bool (*sniff)(const std::string& path, std::string_view head);
  // Reads `files` (all of this format) into `trace`, simulated, with the
  // time span set. Throws UserError naming the file for bad input.
  ReadStats (*read)(const std::vector<std::string>& files, const ReadOptions& options, Trace& trace);
};

std::span<const Format> AllFormats();

// The format of `path`, from its content. Throws UserError naming the file
// when it cannot be read or no format recognises it.
const Format& Detect(const std::string& path);

// Detects the format of the first file and reads them all with it.
ReadStats ReadTrace(const std::vector<std::string>& files, const ReadOptions& options, Trace& trace);

}  // namespace macroscope::formats
