/* A steady loop traced by SimGrid's SMPI (tests/python/test_differential.py):
 * 100 rounds in which every rank computes 2e7 flops, then all meet in a
 * barrier. Every round lasts as long as the slowest host's computation, so
 * a host slowed down for a while (an availability profile) makes the other
 * ranks wait in the barrier longer for that while, and only then. */
#include <mpi.h>
#include <smpi/smpi.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  for (int i = 0; i < 100; ++i) {
    smpi_execute_flops(2e7);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
