// --threads on CTF traces: the CTF reader decodes its streams on one thread
// (docs/ctf.md), so `dump` and `stats` with --threads 2 and 4 must give
// --threads 1's output (and a broken stream the same refusal: CtfCli.
// TruncatedStreamFile) — the equality every reader's threads owe its
// sequential path, ready for a threaded CTF reader. On the traces of
// ../shared/testdata/ctf.
#include <gtest/gtest.h>

#include "ctf_test_support.h"

namespace macroscope::ctf::testing {
namespace {

TEST(CtfThreads, SharedTracesReadTheSame) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  for (const char* name : {"bug446190", "cyg-profile", "flipping-endianness", "mpi_allreduce", "mpi_ssend_irecv",
                           "perf-taskset2"}) {
    for (const std::string command : {"dump", "stats --format csv"}) {
      CommandResult one = ExpectSameWithThreads(command, SharedTrace(std::string("ctf/") + name));
      EXPECT_EQ(one.exit_code, 0) << name << ": " << command << ": " << one.err;
    }
  }
}

}  // namespace
}  // namespace macroscope::ctf::testing
