// `mpirun -np N macroscope stats|aggregate` on a CTF trace of several
// stream files: each rank decodes a share of the streams, every rank merges
// them all (formats/ctf/stream_parts.h); the output is the single
// process's, byte for byte, on the traces of ../shared/testdata/ctf (kernel
// LTTng with equal times on several CPUs, in several rounds of events; a
// trace without UUID whose streams src.ctf.fs numbers itself), on a folder
// with two copies of one trace (one UUID: read whole), and a stream damaged
// in rank 1's share gives the single process's message on every rank.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "ctf_test_support.h"
#include "mpi_support.h"

namespace macroscope::testing {
namespace {

namespace fs = std::filesystem;
using ctf::testing::CopyOf;
using ctf::testing::Overwrite;

std::string SharedCtf(const std::string& name) { return SharedTestData() + "/ctf/" + name; }

TEST(MpiCtf, StreamsDecodedByTheRanksAreTheSingleProcesss) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  for (const char* name : {"bug446190", "mpi_allreduce"}) {
    SCOPED_TRACE(name);
    const std::string trace = Quote(SharedCtf(name));
    double exchanged = 0;
    ExpectSameUnderMpirun("stats --format csv " + trace, &exchanged);
    EXPECT_GT(exchanged, 0) << "the ranks sent their events";
    ExpectSameUnderMpirun("aggregate --plist " + trace);
    // Every rank maps the whole trace, with the whole reading's ids: info
    // sums rank 0's counts, import writes rank 0's entities.
    ExpectSameUnderMpirun("info --json " + trace);
    TempDir out;
    ExpectSameImportUnderMpirun(trace, out.path());
  }
}

TEST(MpiCtf, TwoCopiesOfOneTraceAreReadWhole) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  TempDir dir;
  const fs::path folder = fs::path(dir.path()) / "copies";
  fs::create_directory(folder);
  fs::copy(SharedCtf("mpi_ssend_irecv"), folder / "a", fs::copy_options::recursive);
  fs::copy(SharedCtf("mpi_ssend_irecv"), folder / "b", fs::copy_options::recursive);
  ExpectSameUnderMpirun("stats --format csv " + Quote(folder.string()));
}

TEST(MpiCtf, StreamDamagedInAnotherRanksShareFailsTheSame) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  TempDir dir;
  const fs::path trace = CopyOf(dir, SharedCtf("bug446190"));
  // The second largest stream file: rank 1's share of 2 and of 4. Inside a
  // packet, past the index: babeltrace2 fails there, after its first events.
  fs::permissions(trace / "channel0_0", fs::perms::owner_write, fs::perm_options::add);
  Overwrite(trace / "channel0_0", 150000, std::string(16, '\xFF'));
  ExpectSameErrorUnderMpirun("stats " + Quote(trace.string()));
}

}  // namespace
}  // namespace macroscope::testing
