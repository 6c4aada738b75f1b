// The stores of an archive read in parts, gathered on part 0 in the order
// a whole reading creates them (the import of an archive under mpirun).
//
// Each part creates the stores of its locations at records whose position
// in a whole reading it knows (part_types.h); the links are all simulated
// by part 0 (the reader sends it every message half), which creates their
// stores at the end, so a link store is created, in a whole reading, at
// the first half of a message of its (container, type) any part read: the
// least of the parts' notes. The stores travel as paje/stores_exchange.h
// writes them and are merged as the sharded simulator merges its shards'
// (MergeStores), ranked by those positions; each container lists its
// stores in that order, as a whole reading appends them.
#pragma once

#include <vector>

#include "formats/otf2/part_types.h"
#include "formats/part_exchange.h"
#include "model/trace.h"

namespace macroscope::otf2 {

// Collective. Moves every part's stores into part 0's `trace` (the others
// keep none); `stores_at` and `link_uses` are the translator's
// (event_translator.h), `trace` already with the whole reading's types.
void GatherStores(formats::PartExchange& share, Trace& trace, const std::vector<ReadingPosition>& stores_at,
                  const std::vector<StoreUse>& link_uses);

}  // namespace macroscope::otf2
