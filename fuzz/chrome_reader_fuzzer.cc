// libFuzzer target: any bytes given to the Chrome JSON reader either read
// into a trace (then written back as Chrome JSON) or raise UserError.
#include <cstdint>
#include <cstdio>
#include <string_view>

#include "formats/chrome/chrome_reader.h"
#include "formats/chrome/chrome_writer.h"
#include "util/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  macroscope::Trace trace;
  try {
    macroscope::chrome::ReadChromeText(text, "fuzz.json", trace);
  } catch (const macroscope::UserError&) {
    return 0;
  }
  trace.BuildIndexes();
  static std::FILE* sink = std::fopen("/dev/null", "w");
  macroscope::chrome::WriteChrome(trace, sink);
  return 0;
}
