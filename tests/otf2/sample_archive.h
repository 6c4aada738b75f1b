// A small OTF2 archive (22 event records) written at test time with the
// OTF2 writer API, so that the reader is tested on what the library itself
// writes, with every mapped feature present and known counts:
//   system tree  machine "cluster" > node "n0" (property "platform" = "test")
//   processes    "Rank 0" (locations 0 "Master thread", 2 "Worker thread")
//                "Rank 1" (location 1 "Master thread")
//   clock        1000 ticks per second, global offset 1000 (tick 1002 = 2 ms)
//   location 0   PROGRAM_BEGIN; main > compute, main > MPI_Send (MPI_SEND
//                to rank 1, tag 7, 64 bytes); METRIC cycles/temperature at
//                two instants; attribute "phase" = "init" on ENTER main;
//                PROGRAM_END
//   location 1   main > MPI_Recv (MPI_RECV from rank 0, tag 7)
//   location 2   main > compute > compute (three levels)
#pragma once

#include <cstdint>
#include <string>

namespace macroscope::otf2::testing {

struct SampleCounts {
  int containers = 7;        // cluster, n0, 2 processes, 3 locations
  int states = 8;            // ENTER records
  int max_level = 2;         // location 2
  int links = 1;             // MPI_SEND / MPI_RECV pairs
  int metric_records = 2;    // METRIC records, 2 members each
  int variable_values = 4;
  int events = 2;            // PROGRAM_BEGIN, PROGRAM_END
  double start = 0.002, end = 0.100;
};

// Writes the archive as DIRECTORY/traces.otf2 (+ traces.def, traces/) and
// returns the anchor's path. Throws std::runtime_error on a library error
// (which fails the calling test). Also the base archive of
// fuzz/otf2_reader_fuzzer (library macroscope_otf2_sample). `program_end`:
// the time of location 0's PROGRAM_END, the last record (another one moves
// the end, e.g. beyond what the model holds).
std::string WriteSampleArchive(const std::string& directory, uint64_t program_end = 1100);

}  // namespace macroscope::otf2::testing
