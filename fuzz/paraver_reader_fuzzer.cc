// libFuzzer target: any bytes, cut at their first two NUL bytes into a .prv,
// a .pcf and a .row (absent when missing), either read into a trace (then
// written back as Paraver) or raise UserError.
#include <cstdint>
#include <cstdio>
#include <string_view>

#include "formats/paraver/paraver_reader.h"
#include "formats/paraver/paraver_writer.h"
#include "util/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view parts[3];
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  for (int i = 0; i < 3 && !rest.empty(); ++i) {
    const size_t nul = i < 2 ? rest.find('\0') : std::string_view::npos;
    parts[i] = rest.substr(0, nul);
    rest = nul == std::string_view::npos ? std::string_view() : rest.substr(nul + 1);
  }
  macroscope::Trace trace;
  try {
    macroscope::paraver::ReadParaverText(parts[0], parts[1], parts[2], "fuzz.prv", trace);
  } catch (const macroscope::UserError&) {
    return 0;
  }
  trace.BuildIndexes();
  static std::FILE* sink = std::fopen("/dev/null", "w");
  macroscope::paraver::WriteParaver(trace, sink, sink, sink);
  return 0;
}
