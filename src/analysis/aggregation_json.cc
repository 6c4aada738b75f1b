#include "analysis/aggregation_json.h"

#include "analysis/time_json.h"

namespace macroscope::analysis {

nlohmann::ordered_json PartitionJson(const MicroModel& model, const Aggregation& aggregation,
                                     const Partition& partition, double p, bool spatiotemporal) {
  const auto& tree = model.hierarchy();
  nlohmann::ordered_json out;
  if (model.range()) {
    out["range"] = {model.range()->begin, model.range()->end};
    out["time"] = TimeBaseJson(model.range()->base, model.range()->begin);  // what range's units are
  } else {
    out["range"] = nullptr;
  }
  out["slices"] = model.slices();
  out["p"] = p;
  out["gain"] = partition.quality.gain;
  out["loss"] = partition.quality.loss;
  out["normalized"] = aggregation.normalized();
  auto parts = nlohmann::ordered_json::array();
  for (const auto& part : partition.parts) {
    nlohmann::ordered_json item;
    item["start_slice"] = part.first_slice;
    item["end_slice"] = part.last_slice;
    item["node"] = spatiotemporal ? tree.Path(part.node) : "";
    item["gain"] = part.gain;
    item["loss"] = part.loss;
    parts.push_back(std::move(item));
  }
  out["parts"] = std::move(parts);
  return out;
}

nlohmann::ordered_json PListJson(const std::vector<PListEntry>& list) {
  auto out = nlohmann::ordered_json::array();
  for (const auto& entry : list) {
    nlohmann::ordered_json item;
    item["p"] = entry.p;
    item["gain"] = entry.quality.gain;
    item["loss"] = entry.quality.loss;
    item["parts"] = entry.quality.parts;
    out.push_back(std::move(item));
  }
  return out;
}

nlohmann::json StatisticsJson(const Statistics& stats) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& r : stats.rows)
    rows.push_back({{"kind", r.kind}, {"type", r.type}, {"value", r.value}, {"count", r.count},
                    {"total_time", r.total_time}, {"mean_time", r.mean_time}, {"share", r.share}});
  return nlohmann::json{{"range", {stats.start, stats.end}}, {"time", TimeBaseJson(stats.base, stats.start)}, {"rows", rows}};
}

}  // namespace macroscope::analysis
