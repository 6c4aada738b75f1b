// libFuzzer target: an OTF2 archive with one of its files replaced by the
// input (first byte: which file) either reads into a trace or raises
// UserError. The archive is the tests' sample (tests/otf2/sample_archive.h,
// written with the OTF2 writer API at start, so the target needs nothing
// outside the repository); MACROSCOPE_FUZZ_OTF2 names another archive
// directory (its anchor must be traces.otf2, as Score-P's are).
// Seeds: the archive's own files (fuzz/corpus/otf2/, MACROSCOPE_FUZZ_SEEDS).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>

#include "formats/otf2/archive_reader.h"
#include "sample_archive.h"
#include "scratch_files.h"

namespace {

std::string SampleArchive() {
  const auto directory = macroscope::fuzz::ScratchDirectory() / "sample";
  try {
    macroscope::otf2::testing::WriteSampleArchive(directory.string());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz: %s\n", e.what());
    std::exit(1);
  }
  return directory.string();
}

macroscope::fuzz::MutableTraceCopy& Copy() {
  static macroscope::fuzz::MutableTraceCopy copy("MACROSCOPE_FUZZ_OTF2",
                                                 std::getenv("MACROSCOPE_FUZZ_OTF2") ? "" : SampleArchive());
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
