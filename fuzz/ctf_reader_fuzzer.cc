// libFuzzer target: a real CTF trace (LTTng's, from the shared test data;
// MACROSCOPE_FUZZ_CTF names another) with one of its files — the metadata or
// a stream — replaced by the input (first byte: which file) either reads
// into a trace through babeltrace2 or raises UserError.
#include <cstdint>

#include "formats/ctf/ctf_reader.h"
#include "scratch_files.h"

namespace {

macroscope::fuzz::MutableTraceCopy& Copy() {
  static macroscope::fuzz::MutableTraceCopy copy(
      "MACROSCOPE_FUZZ_CTF", MACROSCOPE_SOURCE_DIR "/../shared/testdata/ctf/mpi_ssend_irecv");
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
    macroscope::ctf::ReadCtf({root.string()}, trace);
  });
  return 0;
}
