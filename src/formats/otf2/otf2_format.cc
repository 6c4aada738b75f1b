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
  // Threads decoding while this one translates. --threads 1: none, the
  // sequential reader; N > 1: N. 0: one per core but the translating
  // thread's, so that on 2 cores one decodes while the other translates
  // (the library's decoding is about half of a reading that keeps one kind
  // of entities, as `profile` and `comm` do: docs/otf2.md). A part of a
  // reading in parts (mpirun) leaves the other cores to the other parts.
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  const int decoders = options.threads == 1  ? 0
                       : options.threads > 1 ? options.threads
                       : options.share       ? 0
                                             : std::max(0, cores - 1);
  // `paje.gather`: the import's wish, for every reader in parts.
  ArchiveStats s =
      ReadArchive(files.front(), simulator, trace, options.share, decoders, options.paje.gather, options.kinds);
  return {.events = s.records, .bytes = s.bytes};
}

}  // namespace

formats::Format Otf2Format() {
  return {"otf2", "OTF2 archives (Score-P; anchor file NAME.otf2 or its folder), through the OTF2 library", Sniff,
          Read};
}

}  // namespace macroscope::otf2
