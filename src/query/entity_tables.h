// The trace's entities as SQLite virtual tables (schema.h): states,
// events, links, variables, and args (the entities' user fields). A
// cursor pulls the chunks of the stores a query needs, one piece at a time
// (model/entity_source.h), whether the trace is in memory or a store on
// disk; the query's constraints choose what is read:
//
// - `container = N` and `type = 'name'` pick the stores (one per
//   container and type) before any is read;
// - bounds on `ts` and `end` (<, <=, >, >=, =) make a window [t1, t2]:
//   only chunks whose zone map meets it are read (a store on disk), and
//   only entities meeting it are handed to SQLite;
// - `value = 'name'` compares string ids, not text;
// - `id = N` reads the one entity.
//
// SQLite checks every constraint again on what it is handed, so the
// pruning only has to keep every row that may match.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "model/entity_source.h"

namespace macroscope::query {

// Entity ids: 0 … N - 1 over the entities of store 0, then store 1's, …
// each store's in its order (the workbench's "store:index" is entity
// `index` of store `store`): the same for a trace and the store imported
// from it.
class EntityIds {
 public:
  explicit EntityIds(const EntitySource& source);
  int64_t Id(uint32_t store, uint64_t index) const { return static_cast<int64_t>(first_[store] + index); }
  // The store and place of `id`; false when no entity has it.
  bool Place(int64_t id, uint32_t& store, uint64_t& index) const;

 private:
  std::vector<uint64_t> first_;  // by store, its entity 0's id; then the count
};

// The kind of entity table `table` holds ("states": kState, …); none for
// args (every kind) and the other tables.
std::optional<TypeKind> EntityKindOf(std::string_view table);

// Registers states, events, links, variables and args on `db` as
// eponymous tables over `source`, which must outlive the connection.
void RegisterEntityTables(sqlite3* db, const EntitySource& source);

}  // namespace macroscope::query
