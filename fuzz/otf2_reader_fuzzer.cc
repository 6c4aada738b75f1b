// libFuzzer target: a real OTF2 archive (Score-P's, from the shared test
// data; MACROSCOPE_FUZZ_OTF2 names another) with one of its files replaced
// by the input (first byte: which file) either reads into a trace or raises
// UserError.
// The seeds are the archive's own files (fuzz/run makes them).
#include <cstdint>

#include "formats/otf2/archive_reader.h"
#include "scratch_files.h"

namespace {

macroscope::fuzz::MutableTraceCopy& Copy() {
  static macroscope::fuzz::MutableTraceCopy copy(
      "MACROSCOPE_FUZZ_OTF2", MACROSCOPE_SOURCE_DIR "/../shared/testdata/otf2/ping-pong-otf2");
  return copy;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  macroscope::fuzz::WriteSeedsIfAsked(Copy());
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  macroscope::fuzz::ReadMutated(Copy(), data, size, [](const std::filesystem::path& root) {
    macroscope::Trace trace;
    macroscope::otf2::ReadArchive((root / "traces.otf2").string(), {}, trace);
  });
  return 0;
}
