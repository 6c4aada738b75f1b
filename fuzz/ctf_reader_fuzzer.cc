// libFuzzer target: a CTF trace with one of its files — the metadata or a
// stream — replaced by the input (first byte: which file) either reads
// into a trace through babeltrace2 or raises UserError. The trace is
// fuzz/ctf_trace/ (an LTTng-UST recording of a small program's function
// entries and exits on two threads, rewritten compactly by babeltrace2's
// sink.ctf.fs; see fuzz/README.md); MACROSCOPE_FUZZ_CTF names another.
// Each input is read in a child process (isolated.h): babeltrace2 asserts,
// or grows its memory without bound, on some corrupt inputs.
// Seeds: the trace's own files (fuzz/corpus/ctf/, MACROSCOPE_FUZZ_SEEDS).
#include <cstdint>
#include <cstdlib>

#include "formats/ctf/ctf_reader.h"
#include "isolated.h"
#include "scratch_files.h"

namespace {

// What babeltrace2 may allocate for one input before it counts as refused
// (an input is 16 KB at most; a read that succeeds needs a few MB).
constexpr size_t kBudgetMb = 32;

macroscope::fuzz::MutableTraceCopy& Copy() {
  static macroscope::fuzz::MutableTraceCopy copy("MACROSCOPE_FUZZ_CTF", MACROSCOPE_SOURCE_DIR "/fuzz/ctf_trace");
  return copy;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  macroscope::fuzz::WriteSeedsIfAsked(Copy());
  // One read of the pristine trace here loads babeltrace2's plugins, and
  // they stay loaded: each child then finds them in place instead of
  // loading and relocating them again (most of a child's time otherwise).
  setenv("LIBBABELTRACE2_NO_DLCLOSE", "1", 1);
  macroscope::Trace trace;
  macroscope::ctf::ReadCtf({Copy().root().string()}, trace);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Copy().Mutate(data, size);
  macroscope::fuzz::ReadIsolated(
      [] {
        macroscope::Trace trace;
        macroscope::ctf::ReadCtf({Copy().root().string()}, trace);
      },
      kBudgetMb);
  return 0;
}
