// The JSON shapes of aggregation and statistics results (documented in
// docs/aggregate.md and docs/stats.md), built in one place so that the CLI
// and the server answer alike.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "analysis/aggregation.h"
#include "analysis/micro_model.h"
#include "analysis/p_list.h"
#include "analysis/state_statistics.h"

namespace macroscope::analysis {

// `aggregate --p`: range, slices, p, quality, normalized and the parts
// (node paths only in the spatiotemporal mode).
nlohmann::ordered_json PartitionJson(const MicroModel& model, const Aggregation& aggregation,
                                     const Partition& partition, double p, bool spatiotemporal);

// `aggregate --plist`: one object per significant p.
nlohmann::ordered_json PListJson(const std::vector<PListEntry>& list);

// `stats --format json`.
nlohmann::json StatisticsJson(const Statistics& stats);

}  // namespace macroscope::analysis
