#include "formats/otf2/archive_reader.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>

#include <otf2/otf2.h>

#include "formats/otf2/definitions.h"
#include "formats/otf2/event_translator.h"
#include "formats/otf2/library_errors.h"
#include "formats/otf2/location_events.h"
#include "formats/otf2/location_threads.h"
#include "formats/otf2/part_stores.h"
#include "util/error.h"

namespace macroscope::otf2 {

namespace fs = std::filesystem;

namespace {

// The bytes of the archive: the anchor, NAME.def and every file under NAME/.
uint64_t ArchiveBytes(const fs::path& anchor) {
  std::error_code ec;
  uint64_t bytes = fs::file_size(anchor, ec);
  fs::path stem = anchor.parent_path() / anchor.stem();
  if (auto size = fs::file_size(fs::path(stem).replace_extension(".def"), ec); !ec) bytes += size;
  if (fs::is_directory(stem, ec))
    for (const auto& entry : fs::recursive_directory_iterator(stem, ec))
      if (entry.is_regular_file(ec)) bytes += entry.file_size(ec);
  return bytes;
}

// Reads the events of the locations `mine` accepts in global time order
// through `translator`: with this reader, or decoded by `decoders` workers.
void ReadEvents(OTF2_Reader* reader, const std::string& anchor, const LibraryErrorCapture& capture,
                const Definitions& defs, const std::function<bool(OTF2_LocationRef)>& mine, int decoders,
                EventTranslator& translator) {
  if (decoders > 0) return ReadOnThreads(anchor, defs, mine, decoders, translator);
  OpenProgress progress;
  OpenLocations(reader, anchor, capture, defs, mine, progress);
  OTF2_GlobalEvtReader* events = nullptr;
  OTF2_ErrorCode code = ReadLocationEvents(reader, anchor, capture, translator, &events);
  if (translator.error()) std::rethrow_exception(translator.error());
  Check(code, anchor, ("bad event records after record " + std::to_string(translator.records())).c_str(), capture);
  Check(OTF2_Reader_CloseGlobalEvtReader(reader, events), anchor, "bad event records", capture);
  Check(OTF2_Reader_CloseEvtFiles(reader), anchor, "bad event records", capture);
}

}  // namespace

bool LooksLikeAnchor(std::string_view head) {
  // An anchor file opens with OTF2's buffer header: one byte, the byte-order
  // mark ('B' or 'L'), then the magic "OTF2" and a NUL.
  return head.size() >= 7 && (head[1] == 'B' || head[1] == 'L') && head.substr(2, 5) == std::string_view("OTF2\0", 5);
}

std::string FindAnchor(const std::string& path) {
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return path;
  std::string found;
  for (const auto& entry : fs::directory_iterator(path, ec)) {
    if (!entry.is_regular_file(ec) || entry.path().extension() != ".otf2") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::string head(8, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<size_t>(in.gcount()));
    if (!LooksLikeAnchor(head)) continue;
    if (!found.empty()) return "";  // several archives: the user must choose
    found = entry.path().string();
  }
  return found;
}

ArchiveStats ReadArchive(const std::string& path, const paje::SimulatorOptions& options, Trace& trace,
                         formats::PartExchange* share, int decoders, bool gather, formats::EntityKinds kinds) {
  const std::string anchor = FindAnchor(path);
  if (anchor.empty()) throw UserError(path + ": no single OTF2 anchor file (NAME.otf2) in this directory");

  LibraryErrorCapture capture;
  const ReaderPtr owner = OpenReader(anchor, capture);
  OTF2_Reader* reader = owner.get();

  Definitions defs;
  ReadDefinitions(reader, anchor, capture, defs);

  // Shared: this part reads every parts()-th location. Every part has read
  // the same definitions, so errors before here are the same everywhere;
  // from here on, each part reads its own files and the parts agree on
  // failures before they meet (formats/part_exchange.h).
  // Gathered, a metric instance may set the variables of a container whose
  // locations are read apart, two parts building one store: part 0 reads
  // the archive whole (the others nothing) instead.
  const bool apart = share && !(gather && std::any_of(defs.metrics.begin(), defs.metrics.end(),
                                                      [](const auto& m) { return m.second.instance; }));
  std::map<OTF2_LocationRef, int> part_of;
  for (const auto& [location, unused] : defs.locations)
    part_of.emplace(location, apart ? static_cast<int>(part_of.size() % share->parts()) : 0);
  std::function<bool(OTF2_LocationRef)> mine = [&](OTF2_LocationRef location) {
    return share == nullptr || part_of.at(location) == share->part();
  };

  // A part may have no location at all (more parts than locations).
  bool reads = share == nullptr;
  for (const auto& [location, part] : part_of) reads = reads || part == share->part();

  paje::Simulator simulator(trace, options);
  EventTranslator translator(defs, trace, simulator);
  translator.Read(kinds);
  // One part sees every message: nothing to hold.
  if (share && share->parts() > 1) translator.HoldMessages();
  std::string error;
  try {
    if (reads) ReadEvents(reader, anchor, capture, defs, mine, decoders, translator);
    if (!share) translator.Finish();
  } catch (const paje::SimulationError& e) {
    error = anchor + ": " + e.what() + " (event record " + std::to_string(translator.records()) + ")";
  } catch (const UserError& e) {
    error = e.what();
  }
  if (share) {
    share->Agree(error);
    try {
      // Gathered, part 0 simulates every link: no link store is built twice.
      translator.FinishShared(*share, [&](OTF2_LocationRef location) { return gather ? 0 : part_of.at(location); });
    } catch (const paje::SimulationError& e) {
      error = anchor + ": " + e.what();
    }
    share->Agree(error);
  }
  if (!error.empty()) throw UserError(error);
  if (share && gather && share->parts() > 1)
    GatherStores(*share, trace, translator.stores_at(), translator.link_store_uses());
  // The whole archive's records (exact in a double below 2^53).
  const uint64_t records =
      share ? static_cast<uint64_t>(share->Sum(static_cast<double>(translator.records()))) : translator.records();
  return {records, ArchiveBytes(anchor)};
}

}  // namespace macroscope::otf2
