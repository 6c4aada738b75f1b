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
//
// `mixed`: types first used in a different order by every location, so
// that locations read apart define them in orders of their own: odd
// locations are accelerator streams (a "Region" and link types of their
// own), and after the loop each location records punctual events of kinds
// chosen by its rank, at times that interleave the locations and tie
// between them.
// `node_load`: besides, every location sets a metric instance scoped to
// the node ("load"): one variable that locations read apart all set.
std::string WriteRingArchive(const std::string& directory, int processes, int64_t iterations, bool mixed = false,
                             bool node_load = false);

}  // namespace macroscope::mpi::testing
