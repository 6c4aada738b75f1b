// An archive's locations decoded on several threads, translated on this
// one: each worker opens its own OTF2_Reader on the archive (the library
// keeps no state shared between readers but its error callback, see
// library_errors.h) and reads every threads-th of the locations through
// location_events.h; their records come back in blocks and are handed to
// the translator in the order one reader over all the locations delivers
// them. That order is OTF2's global reader's: the record of least time
// among the locations' next records, the least location id on ties. Each
// worker's records are already in that order among its locations, so the
// least of the workers' next records is the least of all locations' next
// records: the merge reproduces the sequential order exactly, ties and
// locations whose time goes back included, and with it every id, store and
// message of the sequential reading.
//
// Why not a trace per thread, merged afterwards: the translator defines
// types ("type:N"), interns strings and creates stores on first use in that
// global order, which shows in `dump`'s store order and in `import`'s
// string table; the decoding is what parallelises without changing them.
//
// Errors are those of the sequential reading: a failure to open a location
// is reported once every worker has opened its own, the first in the
// order one reader meets them; a failure reading a location's events
// after the record the sequential reader had handed over before it.
#pragma once

#include <functional>
#include <string>

#include <otf2/otf2.h>

#include "formats/otf2/definitions.h"
#include "formats/otf2/event_translator.h"

namespace macroscope::otf2 {

// Reads the events of the locations `mine` accepts on `threads` (>= 1)
// worker threads into `translator`, on this thread; throws UserError (or
// the translator's error) as the sequential reader does.
void ReadOnThreads(const std::string& anchor, const Definitions& defs,
                   const std::function<bool(OTF2_LocationRef)>& mine, int threads, EventTranslator& translator);

}  // namespace macroscope::otf2
