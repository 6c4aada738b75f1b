// The processes of an MPI job (mpirun -np N macroscope …) as the parts of
// one reading (formats/part_exchange.h), and the rule that only part 0
// speaks: the others' standard output and error go to /dev/null, and a
// command's result is part 0's (OnRoot).
//
// Without MPI (the default build) or outside mpirun, Launched() is null
// and every command runs as one process, exactly as without this folder.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "formats/part_exchange.h"

namespace macroscope::mpi {

class World : public formats::PartExchange {
 public:
  // Payload bytes this process has sent through the collectives so far
  // (the communication volume docs/mpi.md reports).
  virtual uint64_t bytes_sent() const = 0;
};

// The job this process belongs to, when launched by mpirun in a build with
// MPI (initialised on the first call, finalised at exit); null otherwise.
World* Launched();

// The share to read `files` with: the world for a trace that its reader
// reads in parts (an OTF2 archive by location, Pajé files by byte range,
// CTF streams decoded by share), else null (every process reads the whole
// trace).
formats::PartExchange* ShareFor(const std::vector<std::string>& files);

// The world for a trace whose parts all build the whole type and container
// trees with a whole reading's ids (Pajé files, read by byte range; an
// OTF2 archive, by location; CTF streams, every part mapping them all), for
// commands that sum per type (info) or put the parts' stores back together
// (import); else null.
formats::PartExchange* ShareByRange(const std::vector<std::string>& files);

// Ends the whole job when this process fails on its own (an internal
// error: memory exhausted, a bug): the others may be waiting for it in a
// collective, and would wait for ever. Writes `message` on the process's
// own standard error (a part but 0 has its stdout and stderr on /dev/null)
// and aborts the job with `exit_code`. Returns when not in a job of several
// processes.
void AbortJob(const std::string& message, int exit_code);

// Runs the end of a command (its output) on part 0 only; the other parts
// wait and end as part 0 does: throw the same UserError (silently), or
// return. Then part 0 prints the bytes the job exchanged on stderr. Null
// `world`: runs `f`.
void OnRoot(World* world, const std::function<void()>& f);

}  // namespace macroscope::mpi
