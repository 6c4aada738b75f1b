/* Wait states by construction, traced by SimGrid's SMPI
 * (tests/python/test_waits.py). Rank 1 computes 10^8 flops before it
 * sends one message to rank 0, which posts its receive at once: rank 0
 * is a Late Sender victim for about rank 1's computation. Then rank r
 * computes (r + 1) * 10^7 flops before an MPI_Barrier and (4 - r) * 10^7
 * before an MPI_Allreduce: every rank but the last to arrive waits in each. */
#include <mpi.h>
#include <smpi/smpi.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int value = rank;
  if (rank == 1) {
    smpi_execute_flops(1e8);
    MPI_Send(&value, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
  } else if (rank == 0) {
    MPI_Recv(&value, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  smpi_execute_flops((rank + 1) * 1e7);
  MPI_Barrier(MPI_COMM_WORLD);
  smpi_execute_flops((4 - rank) * 1e7);
  double x = rank, sum;
  MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
