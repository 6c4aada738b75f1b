// Reads one OTF2 archive into a trace through Debian's OTF2 library:
// global definitions (definitions.h), then every location's local
// definitions (the library's id mappings and clock corrections), then all
// events in global time order (event_translator.h) through the simulator;
// or, shared between processes (formats/part_exchange.h), a subset of the
// locations. The locations' event files may be decoded on several threads
// (location_threads.h).
//
// Errors: UserError "ANCHOR: message" for anything wrong with the archive
// (unreadable files, bad records, records the simulator refuses); nothing
// is printed by the library meanwhile (library_errors.h).
#pragma once

#include <cstdint>
#include <string>

#include "formats/format.h"
#include "formats/paje/simulator.h"
#include "formats/part_exchange.h"
#include "model/trace.h"

namespace macroscope::otf2 {

struct ArchiveStats {
  uint64_t records = 0;  // event records read
  uint64_t bytes = 0;    // size of the anchor, definition and event files
};

// `path` is the anchor file (NAME.otf2) or the archive directory holding
// exactly one anchor file. With `share`, only this part's locations (every
// parts()-th, in definition order) are read; the trace holds their
// entities and the links they send, with the span of the whole archive.
// With `decoders` > 0, that many threads decode the (part's) locations'
// event files while this one translates, the result the same
// (location_threads.h); 0: this thread does both. Shared, every
// part ends with the whole reading's types (part_types.h); `gather`: part
// 0 with every part's entities, numbered as a whole reading numbers them
// (part_stores.h), the others with none. `kinds`: the entity kinds read
// (EventTranslator::Read).
ArchiveStats ReadArchive(const std::string& path, const paje::SimulatorOptions& options, Trace& trace,
                         formats::PartExchange* share = nullptr, int decoders = 0, bool gather = false,
                         formats::EntityKinds kinds = formats::EntityKinds::All());

// The anchor file of `path` (itself, or the one anchor in the directory
// `path`); empty when there is none or several.
std::string FindAnchor(const std::string& path);

// True when `head` (a file's first bytes) starts like an OTF2 anchor file.
bool LooksLikeAnchor(std::string_view head);

}  // namespace macroscope::otf2
