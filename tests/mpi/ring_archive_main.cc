// `mpi_ring_archive DIRECTORY PROCESSES ITERATIONS`: writes a ring archive
// (ring_archive.h) for measurements at scale (docs/mpi.md).
#include <cstdio>
#include <exception>
#include <string>

#include "ring_archive.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: mpi_ring_archive DIRECTORY PROCESSES ITERATIONS\n");
    return 1;
  }
  try {
    std::printf("%s\n", macroscope::mpi::testing::WriteRingArchive(argv[1], std::stoi(argv[2]), std::stoll(argv[3]))
                            .c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mpi_ring_archive: %s\n", e.what());
    return 1;
  }
  return 0;
}
