// The catalog schema: an ordered list of migration scripts. Script i takes
// a catalog from version i to version i+1; the version lives in
// PRAGMA user_version. Migrations run in one IMMEDIATE transaction, so two
// processes opening a fresh catalog at once apply them exactly once.
#pragma once

#include <string_view>
#include <vector>

#include "catalog/database.h"

namespace macroscope::catalog {

// PRAGMA application_id of a macroscope catalog ("MSCC").
inline constexpr int kApplicationId = 0x4d534343;

const std::vector<std::string_view>& Migrations();

// The version this program writes: Migrations().size().
int LatestSchemaVersion();

// Brings `db` to the latest version. Throws UserError naming the file for
// a catalog made by a newer macroscope or a database that is not a catalog.
void Migrate(Database& db);

}  // namespace macroscope::catalog
