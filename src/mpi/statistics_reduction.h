// The statistics of a trace read in parts: each part counts its share, and
// part 0 sums the rows.
#pragma once

#include "analysis/state_statistics.h"
#include "formats/part_exchange.h"

namespace macroscope::mpi {

// Collective. On part 0, the rows of every part summed by (kind, type,
// value), with means and shares of the sums; elsewhere, `mine`. Each part
// sends its rows' exact sums (util/exact_sum.h) and part 0 merges them
// exactly: the result is a whole reading's, bit for bit, whatever the times.
analysis::Statistics ReduceStatistics(const analysis::Statistics& mine, formats::PartExchange& share);

}  // namespace macroscope::mpi
