// libFuzzer target: any bytes, written to a file and read as a trace-cmd
// .dat file through libtracecmd and the CTF kernel mapping, either read
// into a trace or raise UserError; both modes (the kernel mapping and the
// raw events) read it.
// Seeds (fuzz/corpus/ftrace/): small .dat files of versions 6 and 7, cut
// from recordings of tests/kernel_recorded's workload (docs/ftrace.md).
#include <cstdint>
#include <string_view>

#include "formats/ftrace/ftrace_reader.h"
#include "scratch_files.h"
#include "util/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = (macroscope::fuzz::ScratchDirectory() / "input.dat").string();
  macroscope::fuzz::WriteFile(path, std::string_view(reinterpret_cast<const char*>(data), size));
  for (bool events_only : {false, true}) {
    try {
      macroscope::Trace trace;
      macroscope::ftrace::ReadFtrace({path}, trace, {.events_only = events_only, .simulator = {}});
    } catch (const macroscope::UserError&) {
      // refused, as it should be
    }
  }
  return 0;
}
