// Running `macroscope` under mpirun, for the tests of tests/mpi.
#pragma once

#include <string>

#include "test_support.h"

namespace macroscope::testing {

// `macroscope ARGS` under mpirun with `ranks` processes (as root too),
// `environment` ("NAME=VALUE ...") set.
CommandResult Mpirun(int ranks, const std::string& args, const std::string& environment = "");

// The single process's standard output, then the same under 2 and 4 ranks,
// rank 0 alone printing the communication volume; `exchanged`, when given,
// receives the bytes the 2-rank run exchanged.
void ExpectSameUnderMpirun(const std::string& args, double* exchanged = nullptr);

// The single process's error (one line, exit 1), then the same under 2 and
// 4 ranks.
void ExpectSameErrorUnderMpirun(const std::string& args);

// `import` of `trace` (quoted) by the single process, then under 2 and 4
// ranks, into stores in `dir` that print the same (`dump -u`, `info
// --json`): an OTF2 archive's store interns its strings in another order.
void ExpectSameImportUnderMpirun(const std::string& trace, const std::string& dir);

}  // namespace macroscope::testing
