/* A chain traced by SimGrid's SMPI (tests/python/test_critical_path.py):
 * rank 0 computes, sends to rank 1; rank r receives from r - 1, computes,
 * sends to r + 1; then all ranks meet in a barrier. Each computes the same
 * flops, so the rank on the slowest host computes longest; the critical
 * path runs through every rank's computation in rank order. */
#include <mpi.h>
#include <smpi/smpi.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  static char buffer[1 << 16];
  if (rank > 0) MPI_Recv(buffer, sizeof buffer, MPI_CHAR, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  smpi_execute_flops(1e8);
  if (rank + 1 < size) MPI_Send(buffer, sizeof buffer, MPI_CHAR, rank + 1, 0, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
