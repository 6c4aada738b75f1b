#include "analysis/aggregation_table.h"

#include <string>

namespace macroscope::analysis {

namespace {

std::string Named(const char* column, bool normalized) {
  return std::string(column) + (normalized ? "_normalized" : "");
}

}  // namespace

Table PartitionTable(bool normalized) {
  return Table({"start_slice", "end_slice", "node", Named("gain", normalized), Named("loss", normalized)});
}

Table PartitionTable(const MicroModel& model, const Aggregation& aggregation, const Partition& partition,
                     bool spatiotemporal) {
  Table table = PartitionTable(aggregation.normalized());
  const auto& tree = model.hierarchy();
  for (const auto& part : partition.parts) {
    table.Put(part.first_slice);
    table.Put(part.last_slice);
    table.Put(spatiotemporal ? tree.Path(part.node) : "");
    table.Put(part.gain);
    table.Put(part.loss);
  }
  return table;
}

Table PListTable(bool normalized) {
  return Table({"p", Named("gain", normalized), Named("loss", normalized), "parts"});
}

Table PListTable(const Aggregation& aggregation, const std::vector<PListEntry>& list) {
  Table table = PListTable(aggregation.normalized());
  for (const auto& entry : list) {
    table.Put(entry.p);
    table.Put(entry.quality.gain);
    table.Put(entry.quality.loss);
    table.Put(entry.quality.parts);
  }
  return table;
}

}  // namespace macroscope::analysis
