// libFuzzer target: any bytes given to the Pajé reader either read into a
// trace (then dumped, to exercise the writer) or raise UserError; nothing
// else may escape, crash, leak or trip a sanitizer.
#include <cstdint>
#include <cstdio>
#include <string_view>

#include "formats/paje/dump_writer.h"
#include "formats/paje/reader.h"
#include "util/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  for (bool no_imbrication : {false, true}) {
    macroscope::Trace trace;
    macroscope::paje::ReadOptions options;
    options.no_strict = true;
    options.simulator.no_imbrication = no_imbrication;
    try {
      macroscope::paje::ReadPajeText(text, "fuzz", options, trace);
    } catch (const macroscope::UserError&) {
      continue;
    }
    trace.BuildIndexes();
    for (auto& s : trace.stores()) (void)s.index.Query(trace.start_time(), trace.end_time());
    static std::FILE* sink = std::fopen("/dev/null", "w");
    macroscope::paje::DumpOptions dump;
    dump.user_fields = true;
    macroscope::paje::WriteDump(trace, dump, sink);
  }
  return 0;
}
