// The events of some of an archive's locations through one OTF2_Reader:
// the steps the sequential reader takes for all its locations and each
// thread of location_threads.h for its own share.
//
// Errors: UserError "ANCHOR: what: reason", as archive_reader.h says.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include <otf2/otf2.h>

#include "formats/otf2/definitions.h"
#include "formats/otf2/event_record.h"
#include "formats/otf2/library_errors.h"

namespace macroscope::otf2 {

struct ReaderCloser {
  void operator()(OTF2_Reader* reader) const { OTF2_Reader_Close(reader); }
};
using ReaderPtr = std::unique_ptr<OTF2_Reader, ReaderCloser>;

// A reader of the archive at `anchor`, serial (no MPI inside the library);
// throws UserError "ANCHOR: cannot open the OTF2 archive: reason".
ReaderPtr OpenReader(const std::string& anchor, const LibraryErrorCapture& capture);

// How far OpenLocations went, so that failures on several threads are told
// in the order one reader meets them.
struct OpenProgress {
  enum Stage { kSelect, kOpenFiles, kLocation, kEvents };
  Stage stage = kSelect;
  size_t position = 0;  // kLocation: the location's position in the definitions
};

// Selects the locations `mine` accepts (in `defs`), reads their local
// definitions (the library's id mappings and clock corrections) and opens
// their event readers.
void OpenLocations(OTF2_Reader* reader, const std::string& anchor, const LibraryErrorCapture& capture,
                   const Definitions& defs, const std::function<bool(OTF2_LocationRef)>& mine,
                   OpenProgress& progress);

// Opens the global event reader of the opened locations (throws UserError
// "ANCHOR: cannot read the events..." when it cannot) and reads every record
// into `sink`, in the library's global order. Returns the library's code of
// the reading (OTF2_SUCCESS, or why it stopped), for the caller to report
// with its own count of records; then `*events` is the reader to close.
OTF2_ErrorCode ReadLocationEvents(OTF2_Reader* reader, const std::string& anchor, const LibraryErrorCapture& capture,
                                  RecordSink& sink, OTF2_GlobalEvtReader** events);

}  // namespace macroscope::otf2
