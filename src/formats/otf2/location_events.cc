#include "formats/otf2/location_events.h"

#include "util/error.h"

namespace macroscope::otf2 {

ReaderPtr OpenReader(const std::string& anchor, const LibraryErrorCapture& capture) {
  ReaderPtr reader(OTF2_Reader_Open(anchor.c_str()));
  if (reader == nullptr)
    throw UserError(anchor + ": cannot open the OTF2 archive" +
                    (capture.first_message().empty() ? "" : ": " + capture.first_message()));
  Check(OTF2_Reader_SetSerialCollectiveCallbacks(reader.get()), anchor, "cannot open the OTF2 archive", capture);
  return reader;
}

void OpenLocations(OTF2_Reader* reader, const std::string& anchor, const LibraryErrorCapture& capture,
                   const Definitions& defs, const std::function<bool(OTF2_LocationRef)>& mine,
                   OpenProgress& progress) {
  progress.stage = OpenProgress::kSelect;
  for (const auto& [location, unused] : defs.locations)
    if (mine(location)) Check(OTF2_Reader_SelectLocation(reader, location), anchor, "bad location", capture);
  // Local definitions hold the id mappings and clock offsets the library
  // applies to events; an archive may have none at all.
  progress.stage = OpenProgress::kOpenFiles;
  const bool local_definitions = OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS;
  Check(OTF2_Reader_OpenEvtFiles(reader), anchor, "cannot open the event files", capture);
  progress.stage = OpenProgress::kLocation;
  progress.position = 0;
  for (const auto& [location, unused] : defs.locations) {
    if (mine(location)) {
      if (local_definitions) {
        if (OTF2_DefReader* def_reader = OTF2_Reader_GetDefReader(reader, location)) {
          uint64_t count = 0;
          Check(OTF2_Reader_ReadAllLocalDefinitions(reader, def_reader, &count), anchor,
                ("bad local definitions of location " + std::to_string(location)).c_str(), capture);
          Check(OTF2_Reader_CloseDefReader(reader, def_reader), anchor, "bad local definitions", capture);
        }
      }
      if (OTF2_Reader_GetEvtReader(reader, location) == nullptr)
        throw UserError(anchor + ": cannot read the events of location " + std::to_string(location) +
                        (capture.first_message().empty() ? "" : ": " + capture.first_message()));
    }
    ++progress.position;
  }
  progress.stage = OpenProgress::kEvents;
  if (local_definitions) Check(OTF2_Reader_CloseDefFiles(reader), anchor, "bad local definitions", capture);
}

OTF2_ErrorCode ReadLocationEvents(OTF2_Reader* reader, const std::string& anchor, const LibraryErrorCapture& capture,
                                  RecordSink& sink, OTF2_GlobalEvtReader** events) {
  *events = OTF2_Reader_GetGlobalEvtReader(reader);
  if (*events == nullptr)
    throw UserError(anchor + ": cannot read the events" +
                    (capture.first_message().empty() ? "" : ": " + capture.first_message()));
  OTF2_GlobalEvtReaderCallbacks* callbacks = OTF2_GlobalEvtReaderCallbacks_New();
  RegisterRecordCallbacks(callbacks);
  OTF2_ErrorCode code = OTF2_Reader_RegisterGlobalEvtCallbacks(reader, *events, callbacks, &sink);
  OTF2_GlobalEvtReaderCallbacks_Delete(callbacks);
  Check(code, anchor, "cannot read the events", capture);
  uint64_t count = 0;
  return OTF2_Reader_ReadAllGlobalEvents(reader, *events, &count);
}

}  // namespace macroscope::otf2
