// `mpi_ring_archive DIRECTORY PROCESSES ITERATIONS [mixed]`: writes a ring
// archive (ring_archive.h) for measurements at scale (docs/mpi.md).
#include <cstdio>
#include <exception>
#include <string>

#include "ring_archive.h"

int main(int argc, char** argv) {
  if (argc != 4 && !(argc == 5 && std::string(argv[4]) == "mixed")) {
    std::fprintf(stderr, "usage: mpi_ring_archive DIRECTORY PROCESSES ITERATIONS [mixed]\n");
    return 1;
  }
  try {
    const std::string anchor =
        macroscope::mpi::testing::WriteRingArchive(argv[1], std::stoi(argv[2]), std::stoll(argv[3]), argc == 5);
    std::printf("%s\n", anchor.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mpi_ring_archive: %s\n", e.what());
    return 1;
  }
  return 0;
}
