// Groups of traces kept in the catalog (schema version 3): the runs of one
// experiment, for `macroscope campaign --group`.
#include "catalog/catalog.h"
#include "util/error.h"

namespace macroscope::catalog {

void Catalog::AddToGroup(std::string_view name, const std::vector<std::string>& paths) {
  if (name.empty()) throw UserError(db_.path() + ": a group needs a name");
  Transaction transaction(db_);
  Statement group(db_, "INSERT OR IGNORE INTO trace_groups (name) VALUES (?1)");
  group.BindText(1, name).Run();
  Statement next(db_, "SELECT coalesce(max(position), -1) + 1 FROM trace_group_members WHERE group_name = ?1");
  next.BindText(1, name);
  int64_t position = next.Step() ? next.Int(0) : 0;
  Statement member(db_, "INSERT OR IGNORE INTO trace_group_members (group_name, position, path) VALUES (?1, ?2, ?3)");
  for (const std::string& path : paths) {
    member.BindText(1, name).BindInt(2, position).BindText(3, CatalogPath(path)).Run();
    position += db_.Changes();
    member.Reset();
  }
  transaction.Commit();
}

std::vector<std::pair<std::string, int64_t>> Catalog::Groups() {
  std::vector<std::pair<std::string, int64_t>> out;
  Statement s(db_,
              "SELECT g.name, count(m.path) FROM trace_groups g LEFT JOIN trace_group_members m "
              "ON m.group_name = g.name GROUP BY g.name ORDER BY g.name");
  while (s.Step()) out.emplace_back(s.Text(0), s.Int(1));
  return out;
}

std::optional<std::vector<std::string>> Catalog::Group(std::string_view name) {
  Statement exists(db_, "SELECT 1 FROM trace_groups WHERE name = ?1");
  exists.BindText(1, name);
  if (!exists.Step()) return std::nullopt;
  std::vector<std::string> out;
  Statement s(db_, "SELECT path FROM trace_group_members WHERE group_name = ?1 ORDER BY position");
  s.BindText(1, name);
  while (s.Step()) out.push_back(s.Text(0));
  return out;
}

}  // namespace macroscope::catalog
