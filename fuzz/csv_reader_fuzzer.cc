// libFuzzer target for both CSV readers: the first byte chooses (even:
// pj_dump's CSV, odd: the generic CSV), the rest is the file. Any input
// either reads into a trace (then dumped) or raises UserError.
#include <cstdint>
#include <cstdio>
#include <string_view>

#include "formats/csv/dump_reader.h"
#include "formats/csv/generic_reader.h"
#include "formats/paje/dump_writer.h"
#include "util/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const bool generic = data[0] % 2 == 1;
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  macroscope::Trace trace;
  try {
    if (generic)
      macroscope::csv::ReadGenericCsvText(text, "fuzz.csv", trace, {});
    else
      macroscope::csv::ReadDumpText(text, "fuzz.csv", trace, {});
  } catch (const macroscope::UserError&) {
    return 0;
  }
  static std::FILE* sink = std::fopen("/dev/null", "w");
  macroscope::paje::WriteDump(trace, {}, sink);
  return 0;
}
