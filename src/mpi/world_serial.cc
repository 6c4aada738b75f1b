// The build without MPI: never launched by mpirun as a job.
#include "mpi/world.h"

namespace macroscope::mpi {

World* Launched() { return nullptr; }

void AbortJob(const std::string&, int) {}

}  // namespace macroscope::mpi
