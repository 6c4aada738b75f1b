// The value of an entity table's column (schema.h's roles) for one entity
// of a chunk, in one place: the SQL tables' cursors (entity_tables.cc)
// and the Python module's bulk reading hand it to their own output.
#pragma once

#include <cstddef>

#include "model/entity_chunk.h"
#include "query/clock.h"
#include "query/entity_tables.h"
#include "query/schema.h"

namespace macroscope::query {

// Calls out.Int(int64_t), out.Real(double), out.Text(StringId) or
// out.Null() with the column `role` of entity i of `c`.
template <class Out>
void PutColumn(Role role, const EntityChunk& c, size_t i, const Clock& clock, const EntityIds& ids, Out& out) {
  const auto container = [&](ContainerId id) {
    if (id == kNone) out.Null();
    else out.Int(id);
  };
  const auto time = [&](double t) {
    if (clock.whole()) out.Int(clock.Ticks(t));
    else out.Real(t);
  };
  const auto ns = [&](double t) {
    if (clock.whole()) out.Int(clock.Ns(clock.Ticks(t)));
    else out.Null();
  };
  switch (role) {
    case Role::kId: return out.Int(ids.Id(c.store, c.index + i));
    case Role::kContainer: return container(c.container);
    case Role::kType: return out.Text(c.type_name);
    case Role::kValue:
      if (c.kind == TypeKind::kVariable) return out.Real(c.Number(i));
      return out.Text(c.Value(i));
    case Role::kKey: return out.Text(c.Key(i));
    case Role::kTs: return time(c.start[i]);
    case Role::kEnd: return time(c.End(i));
    case Role::kDur:
      if (clock.whole()) return out.Int(clock.Ticks(c.End(i)) - clock.Ticks(c.start[i]));
      return out.Real(c.Duration(i));
    case Role::kDepth: return out.Int(c.Level(i));
    case Role::kSrc: return container(c.PeerStart(i));
    case Role::kDst: return container(c.PeerEnd(i));
    case Role::kTsNs: return ns(c.start[i]);
    case Role::kEndNs: return ns(c.End(i));
    case Role::kDurNs:
      if (clock.whole()) return out.Int(clock.Ns(clock.Ticks(c.End(i))) - clock.Ns(clock.Ticks(c.start[i])));
      return out.Null();
    case Role::kNone: return out.Null();
  }
}

}  // namespace macroscope::query
