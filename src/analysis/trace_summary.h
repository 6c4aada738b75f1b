// What a trace holds, counted in one place: the time span, containers per
// container type, entities per entity type and per kind, declared values
// per type. `macroscope info` prints it (docs/info.md) and the server's
// trace list answers its totals (docs/serve.md), so the two agree.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <vector>

#include "model/trace.h"

namespace macroscope::analysis {

struct TraceSummary {
  double start = 0, end = 0;  // model units
  // By type id (the root type, 0, counts nothing).
  std::vector<TypeKind> kinds;
  std::vector<uint64_t> containers;       // container types: their containers
  std::vector<uint64_t> entities;         // entity types: their entities
  std::vector<uint64_t> declared_values;  // entity types: their declared values

  // The containers (kContainer), or the entities of one kind.
  uint64_t Total(TypeKind kind) const;
};

// The counts of `trace` as it holds it: a part of a trace read in parts
// counts its own entities (`info` sums `entities` over the parts).
// `store_sizes` (by store), when given, are the stores' sizes instead of
// what they hold (a trace read for its description only).
TraceSummary SummarizeTrace(const Trace& trace, std::span<const uint64_t> store_sizes = {});

// {"container", "state", "event", "link", "variable"}: the totals.
nlohmann::ordered_json TotalsJson(const TraceSummary& summary);

}  // namespace macroscope::analysis
