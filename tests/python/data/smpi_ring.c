/* An MPI ring traced by SimGrid's SMPI (tests/python/test_smpi.py): in
 * round i (0..4) rank r sends (r + 1) * 1000 * (i + 1) bytes to rank
 * r + 1 (mod size) and receives from r - 1, then all ranks reduce one
 * double. Rank r sends (r + 1) * 15000 bytes in 5 messages in all. */
#include <mpi.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  static char buffer[1 << 20];
  for (int i = 0; i < 5; ++i) {
    int bytes = (rank + 1) * 1000 * (i + 1);
    int from = (rank + size - 1) % size, incoming = (from + 1) * 1000 * (i + 1);
    if (rank % 2 == 0) {
      MPI_Send(buffer, bytes, MPI_CHAR, (rank + 1) % size, i, MPI_COMM_WORLD);
      MPI_Recv(buffer, incoming, MPI_CHAR, from, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buffer, incoming, MPI_CHAR, from, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buffer, bytes, MPI_CHAR, (rank + 1) % size, i, MPI_COMM_WORLD);
    }
    double x = rank, sum;
    MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
