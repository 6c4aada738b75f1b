// libFuzzer target: any file given to the Nsight Systems reader either reads
// into a trace or raises UserError. The reader takes a path (SQLite opens
// files), so the input goes to a scratch file first. Seeds: small exports
// made with the sqlite3 CLI from the tests' synthetic SQL (tests/nsys), in
// the shape of a recent schema and of the older one of the shared data.
#include <cstdint>
#include <string>
#include <string_view>

#include "formats/nsys/nsys_reader.h"
#include "scratch_files.h"
#include "util/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = (macroscope::fuzz::ScratchDirectory() / "input.sqlite").string();
  macroscope::fuzz::WriteFile(path, std::string_view(reinterpret_cast<const char*>(data), size));
  macroscope::Trace trace;
  try {
    macroscope::nsys::ReadNsys({path}, trace);
  } catch (const macroscope::UserError&) {
    return 0;
  }
  trace.BuildIndexes();
  for (auto& s : trace.stores()) (void)s.index.Query(trace.start_time(), trace.end_time());
  return 0;
}
