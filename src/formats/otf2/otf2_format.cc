#include "formats/otf2/otf2_format.h"

#include <algorithm>
#include <thread>

#include "formats/otf2/archive_reader.h"
#include "util/error.h"

namespace macroscope::otf2 {

namespace {

// An anchor file, or a directory holding exactly one (the archive folder
// Score-P writes).
bool Sniff(const std::string& path, std::string_view head) {
  if (!head.empty()) return LooksLikeAnchor(head);
  std::string anchor = FindAnchor(path);
  return !anchor.empty() && anchor != path;
}

formats::ReadStats Read(const std::vector<std::string>& files, const formats::ReadOptions& options, Trace& trace) {
  // One archive is one trace: several would collide in names and clocks.
  if (files.size() != 1) throw UserError(files[1] + ": OTF2 archives are read one at a time");
  paje::SimulatorOptions simulator = options.paje.simulator;
  simulator.sink = options.sink;
  simulator.progress = options.progress;
  // 0: a decoding thread per core but the translating thread's (on 2
  // cores, the sequential reader: see bench/read_threads).
  const int threads = options.threads > 0 ? options.threads
                                          : std::max(1, static_cast<int>(std::thread::hardware_concurrency()) - 1);
  // `paje.gather`: the import's wish, for every reader in parts.
  ArchiveStats s =
      ReadArchive(files.front(), simulator, trace, options.share, threads, options.paje.gather, options.kinds);
  return {.events = s.records, .bytes = s.bytes};
}

}  // namespace

formats::Format Otf2Format() {
  return {"otf2", "OTF2 archives (Score-P; anchor file NAME.otf2 or its folder), through the OTF2 library", Sniff,
          Read};
}

}  // namespace macroscope::otf2
