// libFuzzer target: any bytes given to the GStreamer debug-log reader either
// read into a trace (then indexed) or raise UserError.
#include <cstdint>
#include <string_view>

#include "formats/gstreamer/gstreamer_reader.h"
#include "util/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  macroscope::Trace trace;
  try {
    macroscope::gstreamer::ReadGstreamerText(text, "fuzz.log", trace);
  } catch (const macroscope::UserError&) {
    return 0;
  }
  trace.BuildIndexes();
  return 0;
}
