#include "query/description_tables.h"

#include "query/clock.h"
#include "query/rows_table.h"
#include "query/schema.h"

namespace macroscope::query {

namespace {

// A name, NULL when empty.
analysis::Cell NameCell(const Trace& trace, StringId id) {
  if (id == kEmptyString) return {};
  return std::string(trace.Str(id));
}

analysis::Cell IdCell(uint32_t id) {
  if (id == kNone) return {};
  return static_cast<int64_t>(id);
}

analysis::Table TraceInfo(const EntitySource& source, const std::string& files) {
  const Trace& trace = source.trace();
  const TimeBase& base = trace.time_base();
  const Clock clock(base);
  analysis::Table t(TableColumns(TableNamed("trace_info")));
  t.Put(files);
  t.Put(clock.Time(trace.start_time()));
  t.Put(clock.Time(trace.end_time()));
  t.Put(clock.TimeNs(trace.start_time()));
  t.Put(clock.TimeNs(trace.end_time()));
  t.Put(base.num);
  t.Put(base.den);
  t.Put(base.UnitName());
  t.Put(base.whole_ticks ? 1 : 0);
  if (base.epoch_ns) t.Put(*base.epoch_ns);
  else t.PutEmpty();
  uint64_t entities = 0;
  for (uint32_t k = 0; k < trace.stores().size(); ++k) entities += source.size(k);
  t.Put(entities);
  return t;
}

analysis::Table Types(const Trace& trace) {
  analysis::Table t(TableColumns(TableNamed("types")));
  for (TypeId id = 1; id < trace.types().size(); ++id) {
    const Type& type = trace.type(id);
    t.Put(static_cast<int64_t>(id));
    t.Put(trace.Str(type.name));
    t.Put(NameCell(trace, type.alias));
    t.Put(TypeKindName(type.kind));
    t.Put(IdCell(type.parent == kRootType ? kNone : type.parent));
  }
  return t;
}

analysis::Table Containers(const Trace& trace) {
  const Clock clock(trace.time_base());
  analysis::Table t(TableColumns(TableNamed("containers")));
  for (ContainerId id = 1; id < trace.containers().size(); ++id) {
    const Container& c = trace.container(id);
    t.Put(static_cast<int64_t>(id));
    t.Put(trace.Str(c.name));
    t.Put(trace.ContainerPath(id));
    t.Put(trace.Str(trace.type(c.type).name));
    t.Put(IdCell(c.parent == kRootContainer ? kNone : c.parent));
    t.Put(clock.Time(c.start));
    t.Put(clock.Time(c.destroyed ? c.end : trace.end_time()));
  }
  return t;
}

// The table of `spec`, made by `rows`.
void Register(sqlite3* db, const TableSpec& spec, std::function<analysis::Table()> rows) {
  RowsTableSpec table{spec.name, {}, {}, {}, [rows](const std::vector<analysis::Cell>&) { return rows(); }};
  for (const ColumnSpec& c : spec.columns) table.columns.push_back('"' + std::string(c.name) + "\" " + c.type);
  RegisterRowsTable(db, std::move(table));
}

}  // namespace

void RegisterDescriptionTables(sqlite3* db, const EntitySource& source, std::string files) {
  const EntitySource* s = &source;
  Register(db, TableNamed("trace_info"), [s, files] { return TraceInfo(*s, files); });
  Register(db, TableNamed("types"), [s] { return Types(s->trace()); });
  Register(db, TableNamed("containers"), [s] { return Containers(s->trace()); });
}

}  // namespace macroscope::query
