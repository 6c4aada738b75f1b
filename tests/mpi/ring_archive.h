// An OTF2 archive of any size written with the OTF2 library: `processes`
// MPI ranks (one location each, in one node) that each loop `iterations`
// times over compute, a send to the next rank and a receive from the
// previous one (MPI_Send/MPI_Recv regions around the message records).
// Every message crosses locations, so reading by location splits them all.
#pragma once

#include <cstdint>
#include <string>

namespace macroscope::mpi::testing {

// Writes DIRECTORY/traces.otf2 (+ traces.def, traces/) and returns the
// anchor's path. Throws std::runtime_error on a library error.
std::string WriteRingArchive(const std::string& directory, int processes, int64_t iterations);

}  // namespace macroscope::mpi::testing
