// The result tables of `aggregate --format csv` (docs/aggregate.md): the
// parts of a partition and the significant p values, built in one place
// for the command and the query's aggregation() and plist()
// (docs/query.md). Gain and loss columns are named after what they hold:
// `gain_normalized` and `loss_normalized` when the aggregation divides
// them by the full aggregate's.
#pragma once

#include <vector>

#include "analysis/aggregation.h"
#include "analysis/micro_model.h"
#include "analysis/p_list.h"
#include "analysis/table.h"

namespace macroscope::analysis {

// `aggregate --p P`: one row per part, in time order (then node order):
// start_slice, end_slice, node (its path from the top in the
// spatiotemporal mode, empty in the temporal one), gain, loss.
Table PartitionTable(const MicroModel& model, const Aggregation& aggregation, const Partition& partition,
                     bool spatiotemporal);
// Its columns, no rows.
Table PartitionTable(bool normalized);

// `aggregate --plist`: one row per significant p: p, gain, loss, parts
// (of the partition optimal from that p up to the next).
Table PListTable(const Aggregation& aggregation, const std::vector<PListEntry>& list);
// Its columns, no rows.
Table PListTable(bool normalized);

}  // namespace macroscope::analysis
