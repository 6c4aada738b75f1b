#include "analysis/trace_summary.h"

#include <string>

namespace macroscope::analysis {

uint64_t TraceSummary::Total(TypeKind kind) const {
  const std::vector<uint64_t>& counts = kind == TypeKind::kContainer ? containers : entities;
  uint64_t n = 0;
  for (size_t id = 0; id < kinds.size(); ++id)
    if (kinds[id] == kind) n += counts[id];
  return n;
}

TraceSummary SummarizeTrace(const Trace& trace, std::span<const uint64_t> store_sizes) {
  const size_t types = trace.types().size();
  TraceSummary out;
  out.start = trace.start_time();
  out.end = trace.end_time();
  out.kinds.resize(types);
  out.containers.assign(types, 0);
  out.entities.assign(types, 0);
  out.declared_values.assign(types, 0);
  for (TypeId id = 0; id < types; ++id) out.kinds[id] = trace.type(id).kind;
  for (ContainerId c = 1; c < trace.containers().size(); ++c) ++out.containers[trace.container(c).type];
  for (uint32_t i = 0; i < trace.stores().size(); ++i) {
    const EntityStore& s = trace.stores()[i];
    out.entities[s.type] += store_sizes.empty() ? s.size() : store_sizes[i];
  }
  for (const EntityValue& v : trace.values()) ++out.declared_values[v.type];
  return out;
}

nlohmann::ordered_json TotalsJson(const TraceSummary& summary) {
  nlohmann::ordered_json totals;
  for (TypeKind k : {TypeKind::kContainer, TypeKind::kState, TypeKind::kEvent, TypeKind::kLink, TypeKind::kVariable})
    totals[std::string(TypeKindName(k))] = summary.Total(k);
  return totals;
}

}  // namespace macroscope::analysis
