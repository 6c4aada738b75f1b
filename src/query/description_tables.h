// The trace's description as tables (schema.h): trace_info, types,
// containers; made from the source's description when a statement first
// reads them, without reading an entity.
#pragma once

#include <sqlite3.h>

#include <string>

#include "model/entity_source.h"

namespace macroscope::query {

// `files`: what trace_info says the trace was read from. `source` must
// outlive the connection.
void RegisterDescriptionTables(sqlite3* db, const EntitySource& source, std::string files);

}  // namespace macroscope::query
