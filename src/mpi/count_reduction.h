// Counts of a trace read in parts (entities per type, ...): each part
// counts its share, part 0 sums them.
#pragma once

#include <cstdint>
#include <vector>

#include "formats/part_exchange.h"

namespace macroscope::mpi {

// Collective. On part 0, the parts' `mine` summed element by element (every
// part gives as many, in the same order); elsewhere, `mine`.
std::vector<uint64_t> ReduceCounts(const std::vector<uint64_t>& mine, formats::PartExchange& share);

}  // namespace macroscope::mpi
