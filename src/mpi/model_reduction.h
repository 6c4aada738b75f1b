// The microscopic model of a trace read in parts: each part builds the
// model of its share (analysis::BuildModel over the whole span), and the
// parts' models are summed on part 0.
#pragma once

#include "analysis/micro_model.h"
#include "formats/part_exchange.h"

namespace macroscope::mpi {

// Collective. The hierarchy and the types are those a whole reading would
// build (the container tree with the "(self)" leaves of every part, the
// types of every part in name order); part 0's values are the sums of the
// parts' values, the others' model has none. Each leaf's values usually
// come from one part (the one that read its location): then part 0's sum
// is the part's value, bit for bit.
analysis::MicroModel ReduceModel(const analysis::MicroModel& mine, formats::PartExchange& share);

}  // namespace macroscope::mpi
