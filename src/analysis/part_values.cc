#include "analysis/part_values.h"

namespace macroscope::analysis {

std::vector<LeafSpan> NodeLeafSpans(const Hierarchy& hierarchy) {
  std::vector<LeafSpan> spans(hierarchy.size());
  int32_t next_leaf = 0;
  // Post-order visits children first, in order, so leaves come out in
  // depth-first pre-order; a parent spans from its first child's first leaf.
  for (NodeId node : hierarchy.PostOrder()) {
    if (hierarchy.IsLeaf(node)) {
      spans[node] = {next_leaf++, 1};
    } else {
      auto children = hierarchy.Children(node);
      const LeafSpan& first = spans[children.front()];
      const LeafSpan& last = spans[children.back()];
      spans[node] = {first.first, last.first + last.count - first.first};
    }
  }
  return spans;
}

PartValues SumValues(const MicroModel& model, LeafSpan span, int32_t first_slice,
                     int32_t last_slice) {
  PartValues values;
  values.per_type.assign(model.type_count(), 0.0);
  values.cells = static_cast<int64_t>(span.count) * (last_slice - first_slice + 1);
  for (int32_t leaf = span.first; leaf < span.first + span.count; ++leaf) {
    for (int32_t type = 0; type < model.type_count(); ++type) {
      auto series = model.Series(leaf, type);
      if (series.empty()) continue;
      double sum = 0;
      for (int32_t s = first_slice; s <= last_slice; ++s) sum += series[s];
      values.per_type[type] += sum;
    }
  }
  for (int32_t type = 0; type < model.type_count(); ++type) {
    const double v = values.per_type[type];
    values.total += v;
    if (v > 0 && (values.dominant < 0 || v > values.per_type[values.dominant])) {
      values.dominant = type;
    }
  }
  return values;
}

std::vector<PartValues> PartSums(const MicroModel& model,
                                 const Partition& partition,
                                 const std::vector<LeafSpan>& spans) {
  std::vector<PartValues> sums;
  sums.reserve(partition.parts.size());
  for (const auto& part : partition.parts) {
    sums.push_back(SumValues(model, spans[part.node], part.first_slice, part.last_slice));
  }
  return sums;
}

}  // namespace macroscope::analysis
