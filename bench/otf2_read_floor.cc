// `otf2_read_floor ANCHOR`: the OTF2 library alone reading an archive, as
// any reader built on it must: the global definitions (locations kept),
// then each location's event records in turn, every region enter and
// leave and every MPI send and receive handed to a callback that counts
// it. Prints the records read. bench/profiles times it: the least time a
// reading through the library takes on this machine, which no command
// built on it goes below (docs/profile.md#speed).
#include <otf2/otf2.h>

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

void Check(OTF2_ErrorCode code, const char* what) {
  if (code != OTF2_SUCCESS) throw std::runtime_error(std::string(what) + ": " + OTF2_Error_GetDescription(code));
}

uint64_t counted = 0;

OTF2_CallbackCode Location(void* user, OTF2_LocationRef location, OTF2_StringRef, OTF2_LocationType, uint64_t,
                           OTF2_LocationGroupRef) {
  static_cast<std::vector<OTF2_LocationRef>*>(user)->push_back(location);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode Region(OTF2_LocationRef, OTF2_TimeStamp, uint64_t, void*, OTF2_AttributeList*, OTF2_RegionRef) {
  ++counted;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode Message(OTF2_LocationRef, OTF2_TimeStamp, uint64_t, void*, OTF2_AttributeList*, uint32_t,
                          OTF2_CommRef, uint32_t, uint64_t) {
  ++counted;
  return OTF2_CALLBACK_SUCCESS;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: otf2_read_floor ANCHOR\n");
    return 1;
  }
  try {
    OTF2_Reader* reader = OTF2_Reader_Open(argv[1]);
    if (reader == nullptr) throw std::runtime_error(std::string(argv[1]) + ": not an OTF2 archive");
    Check(OTF2_Reader_SetSerialCollectiveCallbacks(reader), "collectives");
    std::vector<OTF2_LocationRef> locations;
    OTF2_GlobalDefReader* definitions = OTF2_Reader_GetGlobalDefReader(reader);
    OTF2_GlobalDefReaderCallbacks* on_definition = OTF2_GlobalDefReaderCallbacks_New();
    Check(OTF2_GlobalDefReaderCallbacks_SetLocationCallback(on_definition, Location), "definitions");
    Check(OTF2_Reader_RegisterGlobalDefCallbacks(reader, definitions, on_definition, &locations), "definitions");
    uint64_t read = 0;
    Check(OTF2_Reader_ReadAllGlobalDefinitions(reader, definitions, &read), "definitions");
    OTF2_GlobalDefReaderCallbacks_Delete(on_definition);
    for (const OTF2_LocationRef location : locations) Check(OTF2_Reader_SelectLocation(reader, location), "locations");
    Check(OTF2_Reader_OpenEvtFiles(reader), "event files");
    OTF2_EvtReaderCallbacks* on_event = OTF2_EvtReaderCallbacks_New();
    Check(OTF2_EvtReaderCallbacks_SetEnterCallback(on_event, Region), "callbacks");
    Check(OTF2_EvtReaderCallbacks_SetLeaveCallback(on_event, Region), "callbacks");
    Check(OTF2_EvtReaderCallbacks_SetMpiSendCallback(on_event, Message), "callbacks");
    Check(OTF2_EvtReaderCallbacks_SetMpiRecvCallback(on_event, Message), "callbacks");
    uint64_t records = 0;
    for (const OTF2_LocationRef location : locations) {
      OTF2_EvtReader* events = OTF2_Reader_GetEvtReader(reader, location);
      if (events == nullptr) throw std::runtime_error("no event reader for a location");
      Check(OTF2_Reader_RegisterEvtCallbacks(reader, events, on_event, nullptr), "callbacks");
      Check(OTF2_Reader_ReadAllLocalEvents(reader, events, &read), "events");
      records += read;
      Check(OTF2_Reader_CloseEvtReader(reader, events), "events");
    }
    OTF2_EvtReaderCallbacks_Delete(on_event);
    Check(OTF2_Reader_CloseEvtFiles(reader), "event files");
    Check(OTF2_Reader_Close(reader), "close");
    std::printf("%llu records, %llu regions and messages\n", static_cast<unsigned long long>(records),
                static_cast<unsigned long long>(counted));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "otf2_read_floor: %s\n", e.what());
    return 1;
  }
  return 0;
}
