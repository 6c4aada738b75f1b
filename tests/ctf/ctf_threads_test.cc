// --threads on CTF traces: the streams decoded on 2, 3 and 4 threads
// (stream_threads.h) give --threads 1's `dump -u`, `stats` and `import`
// store byte for byte, and a damaged stream the same refusal, on the traces
// of ../shared/testdata/ctf (kernel LTTng with equal times on several CPUs,
// two traces in one folder, traces without UUID whose streams src.ctf.fs
// numbers itself), on a folder with two copies of one trace (one UUID: ties
// across traces) and on a stream damaged in the middle (a worker fails
// after its first events). The recorded LTTng-UST trace: CtfRecorded.
// ThreadsReadTheSame.
#include <gtest/gtest.h>

#include "ctf_test_support.h"

namespace macroscope::ctf::testing {
namespace {

namespace fs = std::filesystem;

TEST(CtfThreads, SharedTracesReadTheSame) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  for (const char* name : {"bug446190", "cyg-profile", "flipping-endianness", "mpi_allreduce", "mpi_ssend_irecv",
                           "perf-taskset2"}) {
    SCOPED_TRACE(name);
    ExpectSameOutputsWithThreads(SharedTrace(std::string("ctf/") + name));
  }
}

TEST(CtfThreads, TwoCopiesOfOneTraceReadTheSame) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  TempDir dir;
  fs::path folder = fs::path(dir.path()) / "copies";
  fs::create_directory(folder);
  fs::copy(SharedTrace("ctf/bug446190"), folder / "a", fs::copy_options::recursive);
  fs::copy(SharedTrace("ctf/bug446190"), folder / "b", fs::copy_options::recursive);
  ExpectSameOutputsWithThreads(folder.string());
}

TEST(CtfThreads, StreamDamagedInTheMiddleFailsTheSame) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  TempDir dir;
  fs::path trace = CopyOf(dir, SharedTrace("ctf/bug446190"));
  fs::permissions(trace / "channel0_1", fs::perms::owner_write, fs::perm_options::add);
  // Inside a packet, past the index: babeltrace2 fails there, after the
  // events before it (an unknown event class id).
  Overwrite(trace / "channel0_1", 150000, std::string(16, '\xFF'));
  CommandResult one = ExpectSameWithThreads("dump", trace.string(), kThreadCounts);
  ExpectRefused(one, trace.string());
  EXPECT_NE(one.err.find("cannot decode the CTF trace"), std::string::npos) << one.err;
}

}  // namespace
}  // namespace macroscope::ctf::testing
