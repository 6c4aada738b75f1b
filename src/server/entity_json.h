// One entity in full (GET /api/traces/{t}/entity/{S}:{I}) and the search
// over values and container names (GET /api/traces/{t}/search).
#pragma once

#include <cstdint>
#include <string>

#include "analysis/cancellation.h"
#include "model/entity_source.h"

namespace macroscope::server {

// Every field of entity `index` of store `store`; throws ApiError 404 when
// there is no such entity.
std::string EntityJson(const EntitySource& source, uint32_t store, uint64_t index);

// The store and index an entity id of a path names: "S:I" (the window's
// items), or the query tables' id (docs/query.md: 0 … N − 1, store after
// store) of an entity of `source`. Throws ApiError 404 when it is neither.
std::pair<uint32_t, uint64_t> ParseEntityId(const std::string& text, const EntitySource& source);

inline constexpr size_t kMaxSearchLimit = 1000;
inline constexpr size_t kMaxQueryLength = 200;

// Entities whose value contains `query` and containers whose name does,
// case-insensitively (ASCII), at most `limit` of each. Entities are looked
// for store by store, chunk by chunk, until `limit` are found; Cancelled
// once `cancel` is set (polled between chunks).
std::string SearchJson(const EntitySource& source, const std::string& query, size_t limit,
                       const analysis::Cancellation* cancel = nullptr);

}  // namespace macroscope::server
